// Confines agent file access to the workspace roots (read-write) and the folders
// the context providers declare (read-only), following symlinks before deciding.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { isInsideFolder } from '../../../platform/system-paths.js';

export type Access = 'read' | 'write';

export class WorkspaceGuard {
  private readonly writable: string[];
  private readOnly: string[] = [];

  constructor(roots: string[]) {
    if (roots.length === 0) throw new Error('a workspace needs at least one root folder');
    this.writable = roots.map(canonical);
  }

  get roots(): readonly string[] {
    return this.writable;
  }

  /** Adds folders the agent may read but never write (installed board platforms, device packs). */
  allowReadOnly(dirs: Iterable<string>): void {
    for (const dir of dirs) {
      const real = canonical(dir);
      if (!this.readOnly.includes(real)) this.readOnly.push(real);
    }
  }

  /**
   * Returns the real absolute path the agent may use, or throws a JSON-RPC error
   * that says what was refused and why. Nothing on disk is touched.
   */
  check(requested: string, access: Access): string {
    return this.locate(requested, access).real;
  }

  /** Whether `check` would let the agent have `requested`: what output may quote (compiler diagnostics). */
  allows(requested: string, access: Access): boolean {
    try {
      this.locate(requested, access);
      return true;
    } catch {
      return false;
    }
  }

  /** Like `check`, and also names the allowed root the path lies in (the fs service opens from there). */
  locate(requested: string, access: Access): { real: string; root: string } {
    if (typeof requested !== 'string' || requested.length === 0) {
      throw RequestError.invalidParams({ path: requested }, 'path must be a non-empty string');
    }
    if (requested.includes('\0')) {
      throw RequestError.invalidParams({ path: requested }, 'path contains a NUL byte');
    }
    if (!path.isAbsolute(requested)) {
      throw RequestError.invalidParams(
        { path: requested },
        `path "${requested}" is relative; ACP requires absolute paths (workspace: ${this.writable[0]})`,
      );
    }
    const lexical = path.resolve(requested);
    const real = realOrNearestAncestor(lexical);
    const allowed = access === 'write' ? this.writable : [...this.writable, ...this.readOnly];
    const root = allowed.find((r) => isInside(real, r));
    if (root !== undefined) return { real, root };
    const readOnlyHit = access === 'write' && this.readOnly.some((root) => isInside(real, root));
    const why = readOnlyHit
      ? `${requested} is in a read-only folder (installed platform files); copy what you need into the workspace`
      : real !== lexical && allowed.some((root) => isInside(lexical, root))
        ? `${requested} leads outside the workspace through a symbolic link (to ${real})`
        : `${requested} is outside the workspace ${this.writable.join(', ')}`;
    throw new RequestError(-32602, `Access denied: ${why}`, { path: requested, access });
  }
}

function canonical(dir: string): string {
  return realOrNearestAncestor(path.resolve(dir));
}

/** Whether `candidate` is `root` or lies below it (both absolute and normalised). */
// As the system compares paths: case-insensitive on Windows and macOS (a file named `..foo` is inside).
export function isInside(candidate: string, root: string): boolean {
  return isInsideFolder(candidate, root);
}

// A file that does not exist yet is judged by the real path of the folder it would be created in.
function realOrNearestAncestor(p: string): string {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
