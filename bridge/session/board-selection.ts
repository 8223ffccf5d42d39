// The board the person has chosen (an FQBN, device or camera; the port; the IDE's own
// choice; the files open): one owner per workspace that the face, its session and the board
// tools all read, so a change made in one place (the panel's picker, `/board`, a prompt's
// editor state) is what every reader sees at once, mid-turn too.
import type { Selection } from '../../context-providers/types.js';

export class BoardSelection {
  private value: Selection;

  constructor(initial: Selection = {}) {
    this.value = { ...initial };
  }

  get current(): Selection {
    return this.value;
  }

  get board(): string | undefined {
    return this.value.board;
  }

  /** Replaces the selection; returns whether the board, the port or the IDE's choice changed. */
  set(next: Selection): boolean {
    const key = (s: Selection) => JSON.stringify([s.board, s.port, s.arduinoIde]);
    const changed = key(next) !== key(this.value);
    this.value = { ...next };
    return changed;
  }

  /** Takes the fields `change` gives, keeps the others. */
  update(change: Selection): boolean {
    const given = Object.fromEntries(Object.entries(change).filter((e) => e[1] !== undefined));
    return this.set({ ...this.value, ...given });
  }
}
