import { runCli } from './cli/index.ts';

const argv = process.argv.slice(2);
// A reader that stops early (`postshot openapi | head`) closes the pipe: what is left has nowhere
// to go, and a shell command ends quietly then. A server keeps running without its log reader.
if (argv[0] !== 'serve' && argv[0] !== 'demo') {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}
process.exitCode = await runCli(argv, process.env);
