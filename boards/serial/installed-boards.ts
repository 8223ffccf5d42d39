// The board table for port matching, read from every installed platform's boards.txt through
// the Arduino context provider's platform discovery (Debian, ~/.arduino15, the sketchbook).
import { discoverPlatforms, type DiscoverOptions } from '../../context-providers/arduino/index.js';
import { boardIdentifications, type BoardIdentification } from './port-list.js';

export async function installedBoardIdentifications(options?: DiscoverOptions): Promise<BoardIdentification[]> {
  const installed = await discoverPlatforms(options);
  const result: BoardIdentification[] = [];
  for (const [platformId, release] of installed.platforms) {
    for (const board of release.load().boards.values()) {
      const entries: Array<[string, string]> = [[`${board.id}.name`, board.name]];
      for (const [key, value] of board.properties.entries()) entries.push([`${board.id}.${key}`, value]);
      result.push(...boardIdentifications(entries, platformId));
    }
  }
  return result;
}
