// Pin maps kept on disk between processes (DiskCache's `pin-maps/`), so a new sketch on a board
// seen before does not read its variant header and core tables again. The key is the board's
// whole property set after the IDE's (every fact a reader takes from the board comes from it)
// with its core and variant folders; the entry is stamped with every file the map was read from
// and the two folders (a header added there is a change). The map's live parts are stored as
// data: the variant header's macro and constant tables (variantHeaderOf makes its evaluators
// again), the core's check as its rule and input (restoreCoreCheck). A map whose core check is
// a closure over live tables (esp32) is not stored.
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import type { Token } from './c-tokens.js';
import { restoreCoreCheck, type StoredCoreCheck } from './core-tables/core-checks.js';
import type { CoreFacts } from './core-tables/index.js';
import { DiskCache } from './disk-cache.js';
import type { PinMap, PinMapStorage } from './pin-map.js';
import type { Macro } from './preprocessor.js';
import { variantHeaderOf, type HeaderConstant, type VariantHeaderFacts } from './variant-header.js';

export const PIN_MAPS_FOLDER = 'pin-maps';

type StoredToken = Omit<Token, 'hide'> & { hide?: string[] };
type StoredMacro = Omit<Macro, 'body'> & { body: StoredToken[] };

interface StoredPinMap extends Omit<PinMap, 'variant' | 'core' | 'pinNames' | 'pwmTimers'> {
  variant: Omit<VariantHeaderFacts, 'macros' | 'constants' | 'includes'> & { macros: StoredMacro[]; constants: Array<[string, HeaderConstant]> };
  core?: Omit<CoreFacts, 'check'> & { check?: StoredCoreCheck };
  pinNames: Array<[string, number]>;
  pwmTimers: PinMap['pwmTimers'] extends Map<number, infer V> ? Array<[number, V]> : never;
}

/**
 * The board's identity for its stored pin map: its FQBN, folders and every resolved property, in key
 * order. The keys are sorted natively (the order of `a < b`): sorting a Nucleo's 829 [key,
 * value] pairs with a comparator in JavaScript took an edited sketch's context 1.7 ms.
 */
function keyOf(board: ResolvedBoard): string {
  const keys = [...board.properties.keys()].sort();
  return JSON.stringify([board.fqbn, board.corePath, board.variantPath ?? null, keys.map((key) => [key, board.properties.get(key)])]);
}

const storedToken = (token: Token): StoredToken => {
  if (!token.hide) return token as StoredToken;
  const { hide, ...rest } = token;
  return hide.size > 0 ? { ...rest, hide: [...hide] } : rest;
};
const liveToken = (token: StoredToken): Token => (token.hide ? { ...token, hide: new Set(token.hide) } : (token as Token));

function toStored(map: PinMap): StoredPinMap | undefined {
  const check = map.core?.check;
  if (check && !check.stored) return undefined;
  const { variant, core, pinNames, pwmTimers, ...rest } = map;
  const { evaluate: _e, pinFunction: _p, pinPointerTruth: _t, expandText: _x, macros, constants, includes: _i, ...facts } = variant;
  return {
    ...rest,
    variant: { ...facts, macros: [...macros.values()].map((macro) => ({ ...macro, body: macro.body.map(storedToken) })), constants: [...constants] },
    ...(core ? { core: { ...core, check: check?.stored } } : {}),
    pinNames: [...pinNames],
    pwmTimers: [...pwmTimers],
  };
}

function fromStored(stored: StoredPinMap): PinMap | undefined {
  const { variant, core, pinNames, pwmTimers, ...rest } = stored;
  let check;
  if (core?.check) {
    check = restoreCoreCheck(core.check);
    if (!check) return undefined;
  }
  return {
    ...rest,
    variant: variantHeaderOf({ ...variant, macros: new Map(variant.macros.map((macro) => [macro.name, { ...macro, body: macro.body.map(liveToken) }])), constants: new Map(variant.constants) }),
    ...(core ? { core: withCheck(core, check) } : {}),
    pinNames: new Map(pinNames),
    pwmTimers: new Map(pwmTimers),
  };
}

function withCheck(core: NonNullable<StoredPinMap['core']>, check: CoreFacts['check']): CoreFacts {
  const { check: _, ...facts } = core;
  return check ? { ...facts, check } : facts;
}

export class PinMapStore implements PinMapStorage {
  private readonly disk: DiskCache<StoredPinMap>;

  constructor(dir: string) {
    this.disk = new DiskCache<StoredPinMap>(dir, PIN_MAPS_FOLDER);
  }

  get(board: ResolvedBoard): PinMap | undefined {
    const stored = this.disk.get(keyOf(board))?.value;
    return stored ? fromStored(stored) : undefined;
  }

  /** Stores a map fresh from readPinMap; one that cannot be made again from data is left out. */
  set(board: ResolvedBoard, map: PinMap): void {
    const stored = toStored(map);
    if (stored) this.disk.set(keyOf(board), stored, [...map.files, board.corePath, ...(board.variantPath ? [board.variantPath] : [])]);
  }
}
