// What level a net is at, kept simple and stated here once:
// - a driver is strong (a board output, a supply pin, a 74HC595 output), or a pull (the chip's
//   own pull-up on an input);
// - a closed switch (pushbutton, slide switch) makes two nets one;
// - a resistor passes the level of a strongly driven net to the other side as a resistive level,
//   which beats a pull but not a strong driver (an external pull-up or pull-down, a series LED
//   resistor); it is not a short;
// - strong 0 against strong 1 on one net is a short: the net reads as 0 and the circuit notes it;
// - no driver at all: floating ('z').
export const STRONG = 3;
export const RESISTIVE = 2;
export const PULL = 1;

export interface NetLevel {
  value: 0 | 1 | 'z';
  strength: number;
}

export const FLOATING: NetLevel = { value: 'z', strength: 0 };

export interface Driver {
  net: number;
  value: 0 | 1;
  strength: number;
}

export interface Link {
  a: number;
  b: number;
  resistive: boolean;
}

export interface Resolution {
  levels: NetLevel[];
  /** Nets with strong 0 and strong 1 on them. */
  shorts: number[];
}

export function resolveNets(netCount: number, drivers: Driver[], links: Link[]): Resolution {
  const cluster = Array.from({ length: netCount }, (_, i) => i);
  const find = (i: number): number => {
    while (cluster[i] !== i) i = cluster[i] = cluster[cluster[i]];
    return i;
  };
  for (const link of links) if (!link.resistive) cluster[find(link.a)] = find(link.b);

  const best: NetLevel[] = Array.from({ length: netCount }, () => FLOATING);
  const conflict = new Set<number>();
  for (const driver of drivers) {
    const root = find(driver.net);
    const current = best[root];
    if (driver.strength > current.strength) best[root] = { value: driver.value, strength: driver.strength };
    else if (driver.strength === STRONG && current.strength === STRONG && current.value !== driver.value) conflict.add(root);
  }
  for (const root of conflict) best[root] = { value: 0, strength: STRONG };
  // Resistors carry a level one step weaker, repeated so a chain of them is followed.
  for (let pass = 0, changed = true; changed && pass < netCount; pass++) {
    changed = false;
    for (const link of links) {
      if (!link.resistive) continue;
      for (const [from, to] of [
        [find(link.a), find(link.b)],
        [find(link.b), find(link.a)],
      ]) {
        const source = best[from];
        if (source.strength >= RESISTIVE && best[to].strength < RESISTIVE) {
          best[to] = { value: source.value as 0 | 1, strength: RESISTIVE };
          changed = true;
        }
      }
    }
  }
  return {
    levels: Array.from({ length: netCount }, (_, i) => best[find(i)]),
    shorts: [...conflict],
  };
}
