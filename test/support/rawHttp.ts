/**
 * A raw HTTP/1.1 client for tests that must send what a real client would
 * not (bad framing, truncated bodies, pipelined requests) and see what the
 * node does on the socket: `RawConnection` writes bytes as given and reads
 * each response's head, then skips its body (content-length, chunked, or to
 * the close) so that the next response on a keep-alive connection parses.
 * Only heads are reported: an answer is its status line and headers.
 */
import { connect, type Socket } from "node:net";

export type RawAnswer =
  | { readonly kind: "answer"; readonly status: number; readonly headers: Map<string, string> }
  /** The node closed the connection before any answer to this request. */
  | { readonly kind: "closed" };

type Waiter = { readonly head: boolean; readonly resolve: (a: RawAnswer) => void };

/** Where the parser is in the response stream. */
type BodyState =
  | { readonly kind: "head" }
  | { kind: "length"; left: number }
  | { kind: "chunked"; left: number; trailer: boolean }
  | { readonly kind: "toClose" };

export class RawConnection {
  readonly #socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #state: BodyState = { kind: "head" };
  readonly #waiting: Waiter[] = [];
  #closed = false;
  /** A response the parser cannot frame, or a stream: nothing more can be read. */
  #spent = false;
  #closing = false;
  /** What was written and read, for a failure's message. */
  readonly log: string[] = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (d: Buffer) => {
      this.log.push(`< ${d.subarray(0, 300).toString("latin1")}`);
      this.#buffer = this.#buffer.length === 0 ? d : Buffer.concat([this.#buffer, d]);
      this.#parse();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.log.push("closed");
      this.#closed = true;
      for (const w of this.#waiting.splice(0)) w.resolve({ kind: "closed" });
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port }, () => {
        socket.off("error", reject);
        resolve(new RawConnection(socket));
      });
      socket.on("error", reject);
    });
  }

  /** Whether another request can go on this connection. */
  get usable(): boolean {
    return !this.#closed && !this.#spent && !this.#closing && !this.#socket.destroyed;
  }

  /** The last answer said `connection: close`: the node closes the connection after it. */
  get closing(): boolean {
    return this.#closing;
  }

  /**
   * Writes `bytes` (one request, or a part of one when `expectAnswer` is false)
   * and resolves with the next answer on the connection, or `closed`.
   * `head`: the request is a HEAD (its answer has no body).
   */
  send(
    bytes: Buffer,
    options: { head?: boolean; expectAnswer?: boolean } = {},
  ): Promise<RawAnswer> {
    const answer =
      options.expectAnswer === false
        ? Promise.resolve<RawAnswer>({ kind: "closed" })
        : new Promise<RawAnswer>((resolve) => {
            if (this.#closed) resolve({ kind: "closed" });
            else this.#waiting.push({ head: options.head === true, resolve });
          });
    this.log.push(`> ${bytes.subarray(0, 300).toString("latin1")}`);
    if (!this.#socket.destroyed) this.#socket.write(bytes);
    return answer;
  }

  /** Resolves with the next answer without writing (a request already written in parts). */
  next(head = false): Promise<RawAnswer> {
    return new Promise((resolve) => {
      if (this.#closed) resolve({ kind: "closed" });
      else this.#waiting.push({ head, resolve });
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #parse(): void {
    for (;;) {
      const s = this.#state;
      if (s.kind === "toClose") {
        this.#buffer = Buffer.alloc(0);
        return;
      }
      if (s.kind === "length") {
        const take = Math.min(s.left, this.#buffer.length);
        s.left -= take;
        this.#buffer = this.#buffer.subarray(take);
        if (s.left > 0) return;
        this.#state = { kind: "head" };
        continue;
      }
      if (s.kind === "chunked") {
        if (s.left > 0) {
          const take = Math.min(s.left, this.#buffer.length);
          s.left -= take;
          this.#buffer = this.#buffer.subarray(take);
          if (s.left > 0) return;
          continue;
        }
        const eol = this.#buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = this.#buffer.subarray(0, eol).toString("latin1");
        this.#buffer = this.#buffer.subarray(eol + 2);
        if (s.trailer) {
          if (line === "") this.#state = { kind: "head" };
          continue;
        }
        if (line === "") continue; // the CRLF after a chunk's data
        const size = Number.parseInt(line.split(";")[0] ?? "", 16);
        if (!Number.isFinite(size)) {
          this.#spend();
          return;
        }
        if (size === 0) s.trailer = true;
        else s.left = size;
        continue;
      }
      const end = this.#buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const lines = this.#buffer.subarray(0, end).toString("latin1").split("\r\n");
      this.#buffer = this.#buffer.subarray(end + 4);
      const status = Number((lines[0] ?? "").split(" ")[1]);
      const headers = new Map<string, string>();
      for (const l of lines.slice(1)) {
        const i = l.indexOf(":");
        if (i > 0) headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
      }
      if (status >= 100 && status < 200) continue; // 100 Continue: the answer follows
      const waiter = this.#waiting.shift();
      if (/close/i.test(headers.get("connection") ?? "")) this.#closing = true;
      waiter?.resolve({ kind: "answer", status, headers });
      const length = headers.get("content-length");
      if (waiter?.head === true || status === 204 || status === 304) this.#state = { kind: "head" };
      else if ((headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        this.#spend();
        return;
      } else if (/chunked/i.test(headers.get("transfer-encoding") ?? ""))
        this.#state = { kind: "chunked", left: 0, trailer: false };
      else if (length !== undefined) this.#state = { kind: "length", left: Number(length) };
      else this.#state = { kind: "toClose" };
    }
  }

  /** Nothing more can be read on this connection (a stream, or framing this parser cannot follow). */
  #spend(): void {
    this.#spent = true;
    this.#state = { kind: "toClose" };
    this.#buffer = Buffer.alloc(0);
  }
}

/** Resolves with `value` after `ms`, or with the promise's value if it settles first. */
export function within<T, U>(p: Promise<T>, ms: number, value: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<U>((resolve) => {
      timer = setTimeout(() => resolve(value), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
