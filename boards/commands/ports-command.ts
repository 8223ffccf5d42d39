// `ports`: serial ports and the boards their USB ids identify.
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import type { PortListing } from '../serial/port-list.js';

export type PortsData = PortListing & { held: Record<string, string> };

export async function portsRun(_input: object, deps: OperationContext, io: CommandIo): Promise<Outcome<PortsData>> {
  const listing = await deps.hub.listPorts();
  const held: Record<string, string> = {};
  if (listing.ports.length === 0) io.write('No serial ports found.\n');
  for (const port of listing.ports) {
    const ids = port.vendorId && port.productId ? ` ${port.vendorId}:${port.productId}` : '';
    const boards = port.boards.map((board) => `${board.name} (${board.fqbn})`).join(', ');
    const holder = deps.hub.holder(port.path);
    if (holder) held[port.path] = holder;
    io.write(`${port.path}${ids}${boards ? `  ${boards}` : ''}${holder ? `  [held by ${holder}]` : ''}\n`);
  }
  if (listing.note) io.write(`note: ${listing.note}\n`);
  return { exitCode: 0, data: { ...listing, held } };
}
