/**
 * Whether a request's body was left unread when its answer goes out, and
 * so whether its connection must close after the answer (docs/api.md
 * "Every request is answered").
 *
 * An answer can leave before the body was read to its end: a hook refuses
 * the request (Host, Origin, content type), a body is over a limit, a route
 * ignores the body of a GET. On a keep-alive connection the rest of that
 * body stands between the answer and the client's next request, and a body
 * whose reading was abandoned midway can leave the socket stopped (Node
 * stops reading a socket while a request's buffer is full, and only reading
 * the request starts it again): the next request on the connection is then
 * never read, and never answered. Such an answer says `connection: close`,
 * and Node closes the connection once the answer is written.
 * @module
 */
import type { IncomingMessage } from "node:http";

/** The request announces a body (a length above 0, or chunks) that was not read to its end. */
export function bodyLeftUnread(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  const announces =
    request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  return announces && !request.readableEnded;
}
