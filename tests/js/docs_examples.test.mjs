// Every code block of README.md and docs/ (but sql.md, checked by
// docs_sql.test.mjs, and http-api.md, by tests/edge/docs_http_api.test.mjs)
// is checked, by the first word after its fence:
//   js       a whole program (it imports 'freshet') runs under node against
//            the package; a ```text block right after it is its exact
//            output. A block that imports nothing is a fragment: it must parse.
//   js worker  a Worker module: runs on real workerd (Miniflare); the next
//            ```sh block's curl commands go to it and the ```json block
//            after them is their answer ("…" matches any value).
//   js browser, jsx, svelte (its <script>)  must parse (getting-started's
//            browser block also runs in Chromium: e2e/docs_browser.spec.mjs). A js or jsx block
//            whose first line is `// examples/...` (or another folder's
//            file) is an excerpt: it must be that file's code, which its
//            own tests run (the React guide's app runs in Chromium, e2e/).
//   sql      compiles (Pipeline.create).
//   sh       every `npm run <script>` names a script of package.json, every
//            repository path it names exists.
//   json     parses; toml: `key = value` lines and [tables], or an excerpt
//            (`# edge-worker/wrangler.toml`); python: parses.
// A block of any other kind fails the test, so nothing goes unchecked.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { Miniflare } from 'miniflare';
import ts from 'typescript';

import { Pipeline } from 'freshet';

import { REPO_MODULES } from '../../edge-worker/local.mjs';
import { matches } from './support.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN_DIR = join(ROOT, 'build/docs-examples');
const LOCAL = /http:\/\/(?:127\.0\.0\.1|localhost):8787/g;
const CHECKED_ELSEWHERE = new Set(['docs/sql.md', 'docs/http-api.md']);

/** README.md and every page under docs/, as repository paths. */
function pages() {
  const found = ['README.md'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.md') && !CHECKED_ELSEWHERE.has(path)) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The code blocks of a page: { kind, variant, text, line }. */
function blocks(page) {
  const text = readFileSync(join(ROOT, page), 'utf8');
  return [...text.matchAll(/^```(\w*)(?: (\w+))?\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: m[1], variant: m[2] ?? '', text: m[3], line: text.slice(0, m.index).split('\n').length,
  }));
}

/** Syntax errors of JS or JSX source, as messages. */
function syntaxErrors(source, fileName) {
  const { diagnostics } = ts.transpileModule(source, {
    fileName, reportDiagnostics: true,
    compilerOptions: { jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const importsFreshet = (source) => /from 'freshet(\/\w+)?'/.test(source);

const EXCERPT = /^(?:\/\/|#) ((?:examples|web-demo|edge-worker|e2e|wasm-bindings)\/\S+)$/;

/**
 * An excerpt: a block whose first line is `// <repository path>` shows that
 * file's code (which its own tests run): every piece between `// …` lines
 * must appear in the file, in order. Returns the problems.
 */
function excerptProblems(text) {
  const [first, ...rest] = text.split('\n');
  const path = EXCERPT.exec(first)?.[1];
  if (!path) return [];
  if (!existsSync(join(ROOT, path))) return [`${path} does not exist`];
  const file = readFileSync(join(ROOT, path), 'utf8');
  const pieces = rest.join('\n').split(/^\s*(?:\/\/|#) …\n/m).map((piece) => piece.trimEnd()).filter(Boolean);
  let from = 0;
  for (const piece of pieces) {
    const at = file.indexOf(piece, from);
    if (at < 0) return [`not an excerpt of ${path}:\n${piece}`];
    from = at + piece.length;
  }
  return [];
}

/** An excerpt is checked against its file (it need not parse alone); other code must parse. */
function codeProblems(text, fileName) {
  return EXCERPT.test(text.split('\n')[0]) ? excerptProblems(text) : syntaxErrors(text, fileName);
}

/** Runs a whole program under node inside the package (so 'freshet' resolves to it); returns its stdout. */
function runNode(source, name) {
  mkdirSync(RUN_DIR, { recursive: true });
  const file = join(RUN_DIR, `${name}.mjs`);
  writeFileSync(file, source);
  return execFileSync(process.execPath, [file], { cwd: RUN_DIR, encoding: 'utf8', timeout: 60_000 });
}

const parseJsonLines = (text) => {
  try {
    return [JSON.parse(text)];
  } catch {
    return text.trim().split('\n').map((line) => JSON.parse(line));
  }
};

/** Runs a Worker block on workerd and its curl commands against it; returns their answers (JSON lines). */
async function runWorker(source, name, commands) {
  mkdirSync(RUN_DIR, { recursive: true });
  const file = join(RUN_DIR, `${name}.mjs`);
  // wrangler resolves 'freshet' through the package's `workerd` export; Miniflare alone does not resolve packages.
  writeFileSync(file, source.replace(/from 'freshet'/g, "from '../../wasm-bindings/js/workerd.js'"));
  const mf = new Miniflare({
    ...REPO_MODULES,
    scriptPath: file,
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const url = (await mf.ready).href.replace(/\/$/, '');
    const script = 'curl() { command curl "$@"; echo; }\n' + commands.replace(LOCAL, url);
    const output = execFileSync('bash', ['-e', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    return output.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
  } finally {
    await mf.dispose();
  }
}

/** Problems of an sh block: unknown npm scripts, missing repository paths. */
function shellProblems(text) {
  const problems = [];
  let folder = '';  // a `cd <folder>` line moves the npm scripts' package.json
  for (const line of text.split('\n')) {
    folder = /^cd (\S+)/.exec(line)?.[1] ?? folder;
    const script = /\bnpm run (\w[\w:-]*)/.exec(line)?.[1];
    const manifest = join(ROOT, folder, 'package.json');
    const scripts = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).scripts ?? {} : {};
    if (script && !scripts[script]) problems.push(`npm run ${script}: ${join(folder, 'package.json')} has no such script`);
  }
  // Repository paths: words with a '/' that start with one of its top folders.
  const tops = readdirSync(ROOT).filter((name) => !name.startsWith('.'));
  for (const [word] of text.matchAll(/(?<![\w./:-])[\w.-]+\/[\w./-]*/g)) {
    const path = word.replace(/[.,:]$/, '');
    const top = path.split('/')[0];
    // build/ holds what the scripts build: it need not exist in a checkout.
    if (tops.includes(top) && top !== 'build' && !existsSync(join(ROOT, path))) problems.push(`${path} does not exist`);
  }
  return problems;
}

function tomlProblems(text) {
  return text.split('\n').filter((line) => {
    const bare = line.trim();
    return bare && !bare.startsWith('#') && !/^\[\[?[\w.]+\]\]?$/.test(bare) && !/^[\w.-]+ = ("[^"]*"|\[.*\]|true|false|-?\d+)$/.test(bare);
  }).map((line) => `not TOML: ${line}`);
}

for (const page of pages()) {
  test(`the code blocks of ${page} run or parse`, async () => {
    const list = blocks(page);
    const problems = [];
    for (let i = 0; i < list.length; ++i) {
      const block = list[i];
      const where = `${page}:${block.line}`;
      const name = `${page.replace(/[/.]/g, '_')}_${block.line}`;
      try {
        if (block.kind === 'js' && block.variant === '') {
          if (!importsFreshet(block.text)) {
            problems.push(...codeProblems(block.text, `${name}.js`).map((e) => `${where}: ${e}`));
            continue;
          }
          const stdout = runNode(block.text, name);
          const next = list[i + 1];
          if (next?.kind === 'text') {
            ++i;
            if (stdout !== next.text) problems.push(`${where}: prints\n${stdout}\nthe page says\n${next.text}`);
          }
        } else if (block.kind === 'js' && block.variant === 'worker') {
          const sh = list.slice(i + 1).findIndex((b) => b.kind === 'sh');
          const [commands, answer] = [list[i + 1 + sh], list[i + 2 + sh]];
          assert.ok(sh >= 0 && answer?.kind === 'json', `a worker block is followed by curl commands and their answer`);
          const got = await runWorker(block.text, name, commands.text);
          if (!matches(got, parseJsonLines(answer.text))) problems.push(`${where}: the worker answers ${JSON.stringify(got)}`);
        } else if ((block.kind === 'js' && block.variant === 'browser') || block.kind === 'jsx') {
          problems.push(...codeProblems(block.text, `${name}.${block.kind}`).map((e) => `${where}: ${e}`));
        } else if (block.kind === 'svelte') {
          const script = /<script>([\s\S]*?)<\/script>/.exec(block.text);
          if (!script) problems.push(`${where}: a svelte block has a <script>`);
          else problems.push(...syntaxErrors(script[1], `${name}.js`).map((e) => `${where}: ${e}`));
        } else if (block.kind === 'sql') {
          const p = await Pipeline.create({ sql: block.text });
          p.close();
        } else if (block.kind === 'sh') {
          problems.push(...shellProblems(block.text).map((e) => `${where}: ${e}`));
        } else if (block.kind === 'json') {
          parseJsonLines(block.text);
        } else if (block.kind === 'toml') {
          const excerpt = EXCERPT.test(block.text.split('\n')[0]);
          problems.push(...(excerpt ? excerptProblems(block.text) : tomlProblems(block.text)).map((e) => `${where}: ${e}`));
        } else if (block.kind === 'python') {
          execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: block.text });
        } else if (block.kind === 'text') {
          problems.push(`${where}: a text block that is not the output of a js block before it`);
        } else {
          problems.push(`${where}: a \`\`\`${block.kind} ${block.variant} block, which no test checks`);
        }
      } catch (error) {
        problems.push(`${where}: ${error.message}`);
      }
    }
    assert.deepEqual(problems, []);
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'. */
function anchorOf(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsOf(path) {
  const text = readFileSync(join(ROOT, path), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

test('every relative link of README.md and docs/ resolves, anchors included', () => {
  const problems = [];
  for (const page of [...pages(), ...CHECKED_ELSEWHERE]) {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const path = file ? join(page, '..', file) : page;
      if (!existsSync(join(ROOT, path))) problems.push(`${page}: ${target}: no such file`);
      else if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor)) problems.push(`${page}: ${target}: no such heading`);
    }
  }
  assert.deepEqual(problems, []);
});

test('no tracked file points at design notes outside the repository', () => {
  // The sqllogictest corpus is read from beside the checkout by its runner
  // and scripts, which say so; nothing else may point outside.
  const allowed = /^(scripts\/(slt|test)\.sh|tests\/README\.md|tests\/slt\/.*)$/;
  const outside = new RegExp(['\\b(API|DESIGN|TOOLCHAIN|STYLE)', '\\.md\\b|\\.\\./shared\\b'].join(''));
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const problems = [];
  for (const file of files) {
    if (allowed.test(file) || !existsSync(join(ROOT, file)) || /\.(wasm|png|ico|lock)$/.test(file)) continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (outside.test(line)) problems.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(problems, []);
});
