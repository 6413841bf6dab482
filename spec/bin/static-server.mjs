// A small static file server for the docs site, bound to loopback (node:http, no dependencies).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream";

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  // Shown in the browser, not downloaded: a reader follows these links from the site to read them.
  ".yaml": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

const TEXT = "text/plain; charset=utf-8";
/** The methods a static site answers; any other gets a 405 that names them. */
const ALLOWED = ["GET", "HEAD"];

/** A short plain-text answer (every answer carries a content type; a HEAD gets no body from Node). */
function answer(response, status, text, headers = {}) {
  response.writeHead(status, { "content-type": TEXT, ...headers }).end(text);
}

/**
 * Serves the files under `root` to GET and HEAD; a folder serves its index.html. Paths outside `root`
 * are refused (403), other methods get a 405 with `Allow: GET, HEAD`.
 */
export function createStaticServer(root) {
  const base = path.resolve(root);
  return createServer((request, response) => {
    if (!ALLOWED.includes(request.method ?? "")) {
      answer(response, 405, "Method not allowed", { allow: ALLOWED.join(", ") });
      return;
    }
    let file;
    let pathname;
    try {
      ({ pathname } = new URL(request.url ?? "/", "http://localhost"));
      file = path.resolve(base, `.${decodeURIComponent(pathname)}`);
    } catch {
      // An address URL cannot read (`//`) or a path that is not UTF-8 once decoded (`/%E0`).
      answer(response, 400, "Bad request");
      return;
    }
    if (file !== base && !file.startsWith(`${base}${path.sep}`)) {
      answer(response, 403, "Forbidden");
      return;
    }
    const isFolder = existsSync(file) && statSync(file).isDirectory();
    if (isFolder) file = path.join(file, "index.html");
    // A file asked for as a folder (`/v1.html/`) is not found: served, its relative links would break.
    if ((!isFolder && pathname.endsWith("/")) || !existsSync(file) || !statSync(file).isFile()) {
      answer(response, 404, "Not found");
      return;
    }
    const type = CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
    response.writeHead(200, { "content-type": type, "cache-control": "no-cache" });
    if (request.method === "HEAD") response.end();
    // pipeline closes the file when the reader goes away mid-download (pipe kept it open: one file
    // per cancelled download, until the server ran out); a failed read ends the response.
    else pipeline(createReadStream(file), response, () => {});
  });
}

/** Starts the server on `host:port` (port 0 picks a free one); resolves to its address and a closer. */
export function startStaticServer({ root, host = "127.0.0.1", port = 0 }) {
  const server = createStaticServer(root);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shownHost}:${address.port}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
