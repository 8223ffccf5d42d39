// Which init file Emacs reads, in Emacs's own order (GNU Emacs manual, "How Emacs Finds
// Your Init File", https://www.gnu.org/software/emacs/manual/html_node/emacs/Find-Init.html):
// ~/.emacs.el, ~/.emacs, then init.el in the Emacs directory. That directory is ~/.emacs.d
// when it exists (or when ~/.emacs or ~/.emacs.el does: "~/.emacs.d, ~/.emacs, and
// ~/.emacs.el are always preferred if they exist"), else the XDG one,
// $XDG_CONFIG_HOME/emacs (default ~/.config/emacs), when that exists, else ~/.emacs.d,
// which Emacs then creates. boardbridge's own file goes in that directory too, so
// writing it never creates a ~/.emacs.d that would make Emacs stop reading the XDG init.
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface EmacsPlaces {
  /** The directory Emacs takes as user-emacs-directory. */
  dir: string;
  /** The init file Emacs loads (it may not exist yet). */
  init: string;
  /** An init file the person may think is read but Emacs skips, with why. */
  skipped?: string;
}

export function emacsPlaces(home: string, xdgConfigHome: string): EmacsPlaces {
  const dotD = path.join(home, '.emacs.d');
  const xdg = path.join(xdgConfigHome, 'emacs');
  const homeFiles = [path.join(home, '.emacs.el'), path.join(home, '.emacs')];
  const dir = existsSync(dotD) || homeFiles.some((f) => existsSync(f)) || !existsSync(xdg) ? dotD : xdg;
  const init = homeFiles.find((f) => existsSync(f)) ?? path.join(dir, 'init.el');
  const xdgInit = path.join(xdg, 'init.el');
  const skipped = init !== xdgInit && existsSync(xdgInit) ? `${xdgInit} is not read by Emacs while ${init === path.join(dir, 'init.el') ? dotD : init} exists (GNU Emacs manual, "How Emacs Finds Your Init File"); boardbridge wrote to ${init}, the one Emacs reads` : undefined;
  return { dir, init, ...(skipped ? { skipped } : {}) };
}
