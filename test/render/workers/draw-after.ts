// A fresh process that draws the cards of its arguments in turn and prints a hash of the last
// one's PNG: what a render worker draws for a post, given what it drew before.
import { createHash } from 'node:crypto';
import { renderCard } from '../../../src/render/renderer.ts';
import { corpusPost } from '../corpus.ts';

const draw = (text: string) =>
  renderCard(corpusPost('emoji', { text, name: 'Draw After' }), new Map(), { format: 'png', theme: 'light', scale: 2 });
let png: Buffer | undefined;
for (const text of process.argv.slice(2)) png = (await draw(text)).bytes;
process.stdout.write(createHash('sha256').update(png!).digest('hex'));
