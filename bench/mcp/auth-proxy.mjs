// The conformance suite's client connects without credentials; this loopback proxy adds the demo
// API key to every request it forwards to <target> (the gateway's /api/mcp), so the suite tests
// the real server behind the real gateway. Arguments: <listen port> <target url> <api key>.
import http from "node:http";

const [port, target, key] = process.argv.slice(2);
const upstream = new URL(target);
http.createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host, authorization: `Bearer ${key}` };
  const forward = http.request({ hostname: upstream.hostname, port: upstream.port, path: upstream.pathname,
    method: req.method, headers, timeout: 30000 }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  forward.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(forward);
}).listen(Number(port), "127.0.0.1");
