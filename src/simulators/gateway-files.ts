/**
 * Files, the same for both APIs: `POST /files/upload` (the raw body, as the older clients send
 * it, or a `multipart/form-data` file part, as the generated clients send it),
 * `POST /files/upload_by_url` `{url}` and `GET /files/{id}`.
 */
import { randomUUID } from 'node:crypto';
import type { InboundRequest } from './http.ts';
import { errors, iso, ok, type RouteContext, type RouteHandler } from './gateway-routing.ts';
import type { GatewayFile } from './gateway-state.ts';
import { fileInfoView, uploadView } from './gateway-views.ts';

/** Size and type of an uploaded file: the first file part of a multipart body, else the body itself. */
async function uploaded(req: InboundRequest): Promise<{ size: number; mime: string }> {
  if (req.encoding === 'multipart') {
    try {
      const parts = await new Response(req.body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
      for (const [, value] of parts) if (typeof value !== 'string') return { size: value.size, mime: value.type || 'application/octet-stream' };
    } catch {
      /* an unreadable multipart body is stored as it came */
    }
  }
  return { size: req.body.length, mime: req.headers['content-type'] ?? 'application/octet-stream' };
}

export const upload: RouteHandler = async ({ req, token, state }) => {
  const { size, mime } = await uploaded(req);
  const file: GatewayFile = { id: randomUUID(), token, size, mime_type: mime, created_at: iso() };
  state.files.set(file.id, file);
  return ok(uploadView(file));
};

export const uploadByUrl: RouteHandler = ({ token, body, state }) => {
  if (typeof body.url !== 'string' || body.url === '') return errors(400, 'url is required');
  const file: GatewayFile = { id: randomUUID(), token, size: 0, mime_type: 'application/octet-stream', source_url: body.url, created_at: iso() };
  state.files.set(file.id, file);
  return ok(uploadView(file));
};

/** `GET /files/{id}`; `own` limits it to the caller's files (a transport sees only its own). */
export function getFile(own: boolean, prefix: string): RouteHandler {
  return ({ req, token, state, gatewayUrl }: RouteContext) => {
    const file = state.files.get(req.params.id!);
    if (!file || (own && file.token !== token)) return errors(404, `file ${req.params.id} not found`);
    return ok(fileInfoView(file, `${gatewayUrl}${prefix}/files/${file.id}`));
  };
}
