// node:path's join, without its normalisation where there is nothing to normalise. A first context
// runs without V8's optimizing compilers (bridge/cli/main.ts), Node's own modules included, and
// path.join's normalisation is a JavaScript loop over every character: 24 µs for one join of a
// platform's 100-character paths, where a Nucleo's first context joins paths some hundred times.
import { join as nodeJoin, sep } from 'node:path';

const POSIX = sep === '/';

/**
 * True when `part` joined after a slash (or first, `first`) comes out of path.join as it is: not
 * empty, no empty, `.` or `..` segment, no trailing slash, and (not first) no leading one. Tested
 * with the runtime's own string functions, not a loop over characters.
 */
function unchanged(part: string, first: boolean): boolean {
  if (part.length === 0 || part.endsWith('/') || part.includes('//')) return false;
  if (!first && part.startsWith('/')) return false;
  if (part === '.' || part === '..' || part.startsWith('./') || part.startsWith('../')) return false;
  return !part.includes('/./') && !part.includes('/../') && !part.endsWith('/.') && !part.endsWith('/..');
}

/** path.join: the same result for every argument list, on every platform. */
export function join(...parts: string[]): string {
  if (POSIX && parts.length > 0) {
    // The root alone: path.join('/', 'a') is '/a'.
    const root = parts[0] === '/';
    let joined = root ? '' : parts[0];
    let index = 1;
    if (root || unchanged(joined, true)) {
      for (; index < parts.length && unchanged(parts[index], false); index++) joined += `/${parts[index]}`;
      if (index === parts.length) return root && parts.length === 1 ? '/' : joined;
    }
  }
  return nodeJoin(...parts);
}
