// Writes golden.json: TensorFlow.js's token ids and USE-lite vectors for the
// sentences below, the reference the Go port is tested against.
//   npm install @tensorflow/tfjs@4 @tensorflow-models/universal-sentence-encoder@1.3.3
//   node golden.js MODEL_DIR > golden.json   (MODEL_DIR: the package's dist/)
const tf = require('@tensorflow/tfjs');
const use = require('@tensorflow-models/universal-sentence-encoder');
const fs = require('fs');
const dir = process.argv[2] + '/';
const sentences = [
  'Can you provide an accurate weather forecast?',
  'run the google maps scraper for tech companies, limit 50',
  'getTeamStats for the Lakers',
  'What is the all-time high price of Ripple?',
  'I urgently require extensive code samples that specifically illustrate how to make HTTP requests in Python utilizing the highly popular requests library.',
  'hello',
  'a',
  'Ünïcödé naïve café — “quotes” ½ ﬁ ligature',
  '日本語のテキスト',
  'emoji 🚀🚀 and runes ᚠᚢᚦ',
  '  leading and  double  spaces ',
  'x '.repeat(150),
];
(async () => {
  await tf.setBackend('cpu');
  const mj = JSON.parse(fs.readFileSync(dir + 'model.json'));
  const specs = [], bufs = [];
  for (const g of mj.weightsManifest) { specs.push(...g.weights); for (const p of g.paths) bufs.push(fs.readFileSync(dir + p)); }
  const all = Buffer.concat(bufs);
  const model = await tf.loadGraphModel(tf.io.fromMemory({modelTopology: mj.modelTopology, weightSpecs: specs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)}));
  const tok = new use.Tokenizer(JSON.parse(fs.readFileSync(dir + 'vocab.json')));
  const out = [];
  for (const text of sentences) {
    const ids = tok.encode(text);
    const emb = await model.executeAsync({
      indices: tf.tensor2d(ids.map((_, j) => [0, j]), [ids.length, 2], 'int32'),
      values: tf.tensor1d(ids, 'int32')});
    out.push({text, ids, vector: Array.from((await emb.array())[0]).map(x => +x.toFixed(7))});
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})();
