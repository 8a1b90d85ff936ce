import express from 'express';

// The floor of comparison: a bare express route answering a constant, nothing else.
const app = express();
app.get('/constant', (_req, res) => {
  res.json({ ok: true });
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`bare listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
