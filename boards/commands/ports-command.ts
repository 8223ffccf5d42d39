// `boardbridge ports`: serial ports and the boards their USB ids identify.
import type { InProcessCommand } from '../command.js';
import { parseCommand } from './arguments.js';
import type { BoardCommandDeps } from './deps.js';

export function portsCommand(deps: BoardCommandDeps): InProcessCommand {
  return async (argv, io) => {
    parseCommand({ args: argv, options: {} }, 'boardbridge ports');
    const listing = await deps.hub.listPorts();
    if (listing.ports.length === 0) io.write('No serial ports found.\n');
    for (const port of listing.ports) {
      const ids = port.vendorId && port.productId ? ` ${port.vendorId}:${port.productId}` : '';
      const boards = port.boards.map((board) => `${board.name} (${board.fqbn})`).join(', ');
      const holder = deps.hub.holder(port.path);
      io.write(`${port.path}${ids}${boards ? `  ${boards}` : ''}${holder ? `  [held by ${holder}]` : ''}\n`);
    }
    if (listing.note) io.write(`note: ${listing.note}\n`);
    return 0;
  };
}
