// Looks into a JSON-RPC line without parsing it whole: how deep it nests, and the
// `id` and `method` of a message that is too large or too deep to parse, so that a
// request the bridge cannot take still gets an answer.

export type RpcId = string | number | null;

/** True when the JSON text nests objects and arrays deeper than `max`; linear, and cheap for shallow lines. */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Nesting deeper than max needs more than max opening brackets: count them natively first.
  let opening = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1 && opening <= max; i = text.indexOf(bracket, i + 1)) opening++;
  }
  if (opening <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing the string that opens at `start` (text.length when it does not close). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length;
}

export interface PeekedMessage {
  id?: RpcId;
  method?: string;
}

/**
 * The top-level `id` and `method` found in the first bytes of a message (`head`) or
 * just before its closing brace (`tail`, where `"id":N}` ends most SDK-written lines).
 */
export function peekMessage(head: string, tail = ''): PeekedMessage {
  const found = topLevelFields(head);
  if (!('id' in found)) {
    const id = parsed(tail.match(/[,{]\s*"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|null)\s*\}\s*$/)?.[1]);
    if (id === null || typeof id === 'string' || typeof id === 'number') found.id = id;
  }
  if (found.method === undefined) {
    const method = parsed(tail.match(/[,{]\s*"method"\s*:\s*("(?:[^"\\]|\\.)*")\s*[,}]/)?.[1]);
    if (typeof method === 'string') found.method = method;
  }
  return found;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Walks the text at the top level of its object only, skipping nested values, and reads
// the primitive values of `id` and `method`. Stops where the (cut) text ends.
function topLevelFields(text: string): PeekedMessage {
  const found: PeekedMessage = {};
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return found;
  i++;
  while (i < text.length) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return found;
    const keyEnd = stringEnd(text, i);
    if (keyEnd >= text.length) return found;
    const key = text.slice(i + 1, keyEnd);
    i = skipSpace(text, keyEnd + 1);
    if (text[i] !== ':') return found;
    i = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, i);
    if (valueEnd >= text.length) return found;
    if (key === 'id' || key === 'method') {
      const value = parsed(text.slice(i, valueEnd));
      if (key === 'id' && (value === null || typeof value === 'string' || typeof value === 'number')) found.id = value;
      if (key === 'method' && typeof value === 'string') found.method = value;
    }
    i = skipSpace(text, valueEnd);
    if (text[i] !== ',') return found;
    i++;
  }
  return found;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r' || text[i] === '\n')) i++;
  return i;
}

/** End of the JSON value at `i` (past text.length when the text is cut inside it). */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') {
    const end = stringEnd(text, i);
    return end >= text.length ? text.length + 1 : end + 1;
  }
  if (text[i] === '{' || text[i] === '[') {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') i = stringEnd(text, i);
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) return i + 1;
      }
    }
    return text.length + 1;
  }
  let end = i;
  while (end < text.length && !',}] \t\r\n'.includes(text[end])) end++;
  return end;
}
