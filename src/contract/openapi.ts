/**
 * The three OpenAPI documents: loading, and the walk over their operations and references.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { OPENAPI_DIR } from './paths.ts';

export const OPENAPI_FILES = ['system.openapi.yaml', 'module.openapi.yaml', 'gateway.openapi.yaml'] as const;
export type OpenApiFile = (typeof OPENAPI_FILES)[number];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export function loadOpenApi(file: OpenApiFile): OpenAPIV3_1.Document {
  return parse(fs.readFileSync(path.join(OPENAPI_DIR, file), 'utf8')) as OpenAPIV3_1.Document;
}

/** One operation of a document: under `paths` (`GET /x`) or under `webhooks` (`POST webhook:name`). */
export interface OperationRef {
  key: string;
  method: string;
  operation: OpenAPIV3_1.OperationObject;
}

export function operations(doc: OpenAPIV3_1.Document): OperationRef[] {
  const out: OperationRef[] = [];
  const collect = (items: Record<string, OpenAPIV3_1.PathItemObject | undefined> | undefined, prefix: string): void => {
    for (const [key, item] of Object.entries(items ?? {})) {
      for (const method of METHODS) {
        const operation = item?.[method];
        if (operation) out.push({ key: `${prefix}${key}`, method: method.toUpperCase(), operation });
      }
    }
  };
  collect(doc.paths, '');
  collect(doc.webhooks as Record<string, OpenAPIV3_1.PathItemObject> | undefined, 'webhook:');
  return out;
}

/** Every `$ref` value in a document, with the JSON pointer where it stands. */
export function references(node: unknown, at = '#'): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) return node.flatMap((v, i) => references(v, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [{ at, ref: v }] : references(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}
