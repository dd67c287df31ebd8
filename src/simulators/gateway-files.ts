/**
 * Files, the same for both APIs: `POST /files/upload` (the raw body, as the older clients send
 * it, or a `multipart/form-data` file part, as the generated clients send it),
 * `POST /files/upload_by_url` `{url}` and `GET /files/{id}`. Besides the module's uploads the
 * gateway holds files of its own (`putFile`: a manager's upload in the system, named by a
 * webhook's `items`), served to the transport they are for like its own.
 */
import { randomUUID } from 'node:crypto';
import type { InboundRequest } from './http.ts';
import { errors, ok, type RouteContext, type RouteHandler } from './gateway-routing.ts';
import { iso } from './gateway-values.ts';
import type { GatewayState } from './gateway-state.ts';
import type { GatewayFile } from './gateway-conversations.ts';
import { gatewayFile } from './gateway-conversations.ts';
import { fileInfoView, uploadView } from './gateway-views.ts';

/** Size and type of an uploaded file: the first file part of a multipart body, else the body itself. */
async function uploaded(req: InboundRequest): Promise<{ size: number; mime: string }> {
  const size = req.upload?.size ?? req.body.length;
  if (req.encoding === 'multipart') {
    if (size === req.body.length) {
      // The whole body is here: the platform's multipart reader (undici's, through the WHATWG Response).
      try {
        const parts = await new Response(req.body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
        for (const [, value] of parts) if (typeof value !== 'string') return { size: value.size, mime: value.type || 'application/octet-stream' };
      } catch {
        /* an unreadable multipart body is stored as it came */
      }
    } else {
      const part = streamedFilePart(req.headers['content-type']!, req.body, req.upload!.tail, size);
      if (part) return part;
    }
  }
  return { size, mime: req.headers['content-type'] ?? 'application/octet-stream' };
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/**
 * The first file part of a multipart body that was counted, not kept: its part headers (name,
 * `filename`, `Content-Type`) are read in the body's first bytes (`head`), and its end, the
 * delimiter that follows it (`CRLF--boundary`), in its last bytes (`tail`). Undefined when the
 * part or its end is not found there (the body is then stored as it came).
 */
function streamedFilePart(contentType: string, head: Buffer, tail: Buffer, size: number): { size: number; mime: string } | undefined {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (!boundary) return undefined;
  const dash = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const delimiter = Buffer.concat([CRLF, dash]);
  // The first delimiter may open the body without a CRLF before it.
  let at = head.subarray(0, dash.length).equals(dash) ? 0 : head.indexOf(delimiter);
  while (at >= 0) {
    const headersStart = head.indexOf(CRLF, at + 1) + CRLF.length;
    const headersEnd = head.indexOf(HEADERS_END, headersStart);
    if (headersStart < CRLF.length || headersEnd < 0) return undefined;
    const headers = head.subarray(headersStart, headersEnd).toString('latin1');
    const dataStart = headersEnd + HEADERS_END.length;
    if (/^content-disposition:[^\r\n]*;\s*filename\*?=/im.test(headers)) {
      const tailStart = size - tail.length;
      const from = Math.max(0, dataStart - tailStart);
      const end = tail.indexOf(delimiter, from);
      if (end < 0) return undefined;
      const mime = /^content-type:\s*([^\r\n]*?)\s*$/im.exec(headers)?.[1];
      return { size: tailStart + end - dataStart, mime: mime || 'application/octet-stream' };
    }
    at = head.indexOf(delimiter, dataStart);
  }
  return undefined;
}

export const upload: RouteHandler = async ({ req, token, state }) => {
  const { size, mime } = await uploaded(req);
  const file: GatewayFile = { id: randomUUID(), token, size, mime_type: mime, created_at: iso(), origin: 'module' };
  state.files.set(file.id, file);
  return ok(uploadView(file));
};

export const uploadByUrl: RouteHandler = ({ token, body, state }) => {
  if (typeof body.url !== 'string' || body.url === '') return errors(400, 'url is required');
  const file: GatewayFile = { id: randomUUID(), token, size: 0, mime_type: 'application/octet-stream', source_url: body.url, created_at: iso(), origin: 'module' };
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

/** The files the gateway holds for a token (the module's uploads and the gateway's own), oldest first. */
export function heldFiles(state: GatewayState, token: string): GatewayFile[] {
  return [...state.files.values()].filter((f) => f.token === token);
}

/** Puts a file of the gateway's own for the transport of `token` (kind `image`, `audio`, `video`, else a document); served at `GET /files/{id}`. */
export function putFile(state: GatewayState, token: string, kind: string, size: number): GatewayFile {
  const file = gatewayFile(token, kind, size);
  state.files.set(file.id, file);
  return file;
}
