/**
 * The requirements catalogue: every normative statement of the contract and of the wire
 * profile, the only source of requirement ids. A check applied with an id the catalogue lacks
 * is an error of the suite, never a silent pass.
 */
import fs from 'node:fs';
import { CATALOGUE_FILE } from './paths.ts';

export type Area = 'REG' | 'TEL' | 'DLV' | 'PAY' | 'TRN' | 'BOT' | 'GEN';
export type Actor = 'module' | 'system' | 'gateway';
export type Level = 'MUST' | 'SHOULD';

export interface Requirement {
  id: string;
  section: string;
  quote: string;
  actor: Actor;
  level: Level;
  testable: boolean;
  reason?: string;
  /**
   * The module kinds the statement binds, where its area does not say (a GEN method of a
   * telephony endpoint binds telephony modules only); absent: the area decides.
   */
  kinds?: string[];
}

export const REQUIREMENT_ID = /^(WIRE-)?(REG|TEL|DLV|PAY|TRN|BOT|GEN)-[A-Z0-9]+(-[A-Z0-9]+)*$/;

/** The area of an id (`WIRE-DLV-X` is in `DLV`). */
export function areaOf(id: string): Area {
  const m = REQUIREMENT_ID.exec(id);
  if (!m) throw new Error(`malformed requirement id ${id}`);
  return m[2] as Area;
}

/** True for statements that rest on the wire profile alone. */
export function isProfile(id: string): boolean {
  return id.startsWith('WIRE-');
}

/** The catalogue, indexed by id. */
export class Catalogue {
  readonly entries: readonly Requirement[];
  private readonly byId: Map<string, Requirement>;

  constructor(entries: Requirement[]) {
    this.entries = entries;
    this.byId = new Map(entries.map((e) => [e.id, e]));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The entry of an id; throws on an id the catalogue lacks. */
  get(id: string): Requirement {
    const r = this.byId.get(id);
    if (!r) throw new Error(`requirement ${id} is not in the catalogue`);
    return r;
  }
}

let shared: Catalogue | undefined;

/** The catalogue read from `specs/requirements/catalogue.json`. */
export function catalogue(file: string = CATALOGUE_FILE): Catalogue {
  if (file !== CATALOGUE_FILE) return new Catalogue(JSON.parse(fs.readFileSync(file, 'utf8')) as Requirement[]);
  shared ??= new Catalogue(JSON.parse(fs.readFileSync(file, 'utf8')) as Requirement[]);
  return shared;
}
