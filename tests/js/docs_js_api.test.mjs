// docs/js-api.md is checked against the package's declarations both ways:
// every exported name of index.d.ts (with storages.d.ts), react.d.ts and
// vue.d.ts has a `### \`Name\`` section on the page, every member of an
// exported class, interface or object type and every value of a string
// union (ErrorCode, LiveStatus) is a row of a table whose header starts with
// `member` or `value` in its section, and the page names nothing else.
//
// The page's module is `freshet` except under a `## \`freshet/react\`` or
// `## \`freshet/vue\`` heading. A member row's first cell names the member:
// `p.step()`, `Pipeline.create(options)`, `new MapSink()` (the constructor),
// `'SQL_ERROR'` (a union value).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import ts from 'typescript';

const ROOT = new URL('../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/js-api.md', ROOT), 'utf8');

/** The declaration files of each module of the package. */
const DECLARATIONS = {
  freshet: ['wasm-bindings/js/index.d.ts', 'wasm-bindings/js/storages.d.ts'],
  'freshet/react': ['wasm-bindings/js/react.d.ts'],
  'freshet/vue': ['wasm-bindings/js/vue.d.ts'],
};

/** Module → Map(exported name → sorted member names). */
function declared() {
  const modules = new Map();
  for (const [module, files] of Object.entries(DECLARATIONS)) {
    const names = new Map();
    for (const file of files) {
      const url = new URL(file, ROOT);
      assert.ok(existsSync(url), `${file} is missing: ${module} is documented on docs/js-api.md`);
      const source = ts.createSourceFile(file, readFileSync(url, 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) collectExport(statement, names);
    }
    modules.set(module, names);
  }
  return modules;
}

function isExported(node) {
  return (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;
}

function collectExport(statement, names) {
  if (!isExported(statement)) return;
  const add = (name, members) => names.set(name, [...new Set([...(names.get(name) ?? []), ...members])].sort());
  if (ts.isVariableStatement(statement)) {
    for (const declaration of statement.declarationList.declarations) add(declaration.name.text, []);
  } else if (ts.isFunctionDeclaration(statement)) {
    add(statement.name.text, []);
  } else if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
    add(statement.name.text, membersOf(statement.members));
  } else if (ts.isTypeAliasDeclaration(statement)) {
    add(statement.name.text, aliasMembers(statement.type));
  }
}

/** Public member names; a constructor counts unless it is private. */
function membersOf(members) {
  const names = [];
  for (const member of members) {
    const flags = ts.getCombinedModifierFlags(member);
    if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
    if (ts.isConstructorDeclaration(member)) names.push('constructor');
    else if (member.name && !ts.isPrivateIdentifier(member.name)) names.push(member.name.getText());
  }
  return names;
}

/** A union of string literals → its values; an object type → its members; anything else → none. */
function aliasMembers(type) {
  if (ts.isTypeLiteralNode(type)) return membersOf(type.members);
  if (ts.isUnionTypeNode(type) && type.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) {
    return type.types.map((t) => `'${t.literal.text}'`);
  }
  return [];
}

/** Module → Map(section name → { members, line }), from the page's headings and member tables. */
function documented(text) {
  const modules = new Map(Object.keys(DECLARATIONS).map((module) => [module, new Map()]));
  let module = 'freshet';
  let section = null;
  let inMemberTable = false;
  let inCode = false;
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) return;
    const h2 = /^## (.*)$/.exec(line);
    if (h2) {
      module = /`(freshet\/(?:react|vue))`/.exec(h2[1])?.[1] ?? 'freshet';
      section = null;
      return;
    }
    const h3 = /^### `([A-Za-z_$][\w$]*)`$/.exec(line);
    if (h3) {
      assert.ok(!modules.get(module).has(h3[1]), `docs/js-api.md:${index + 1}: ${module} ${h3[1]} has two sections`);
      section = { members: [], line: index + 1 };
      modules.get(module).set(h3[1], section);
      return;
    }
    if (/^#{1,3} /.test(line)) section = null;
    if (!line.startsWith('|')) {
      inMemberTable = false;
      return;
    }
    const first = line.split('|')[1].trim();
    if (first === 'member' || first === 'value') {
      assert.ok(section, `docs/js-api.md:${index + 1}: a member table outside a \`### Name\` section`);
      inMemberTable = true;
      return;
    }
    if (!inMemberTable || /^-+$/.test(first)) return;
    section.members.push(memberName(first, index + 1));
  });
  return modules;
}

/** The member a first cell names: `p.step()` → step, `new X(...)` → constructor, `'CODE'` → 'CODE'. */
function memberName(cell, line) {
  const code = /^`([^`]+)`$/.exec(cell);
  assert.ok(code, `docs/js-api.md:${line}: a member row's first cell is one \`code span\`, not ${cell}`);
  const text = code[1];
  if (/^'[^']*'$/.test(text)) return text;
  if (/^new /.test(text)) return 'constructor';
  const name = /^(?:[A-Za-z_$][\w$]*\.)?([A-Za-z_$][\w$]*)/.exec(text);
  assert.ok(name, `docs/js-api.md:${line}: cannot read a member name in ${text}`);
  return name[1];
}

test('docs/js-api.md documents every export, member and error code of the declarations, and nothing else', () => {
  const want = declared();
  const have = documented(PAGE);
  const problems = [];
  for (const [module, names] of want) {
    const sections = have.get(module);
    for (const [name, members] of names) {
      const section = sections.get(name);
      if (!section) {
        problems.push(`${module}: ${name} is exported but has no \`### \\\`${name}\\\`\` section`);
        continue;
      }
      const listed = new Set(section.members);
      for (const member of members) if (!listed.has(member)) problems.push(`${module}: ${name}.${member} is declared but not documented`);
      for (const member of listed) if (!members.includes(member)) problems.push(`docs/js-api.md:${section.line}: ${name}.${member} is documented but not declared`);
    }
    for (const [name, section] of sections) {
      if (!names.has(name)) problems.push(`docs/js-api.md:${section.line}: ${module} ${name} is documented but not exported`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the page reader sees what a wrong page would get wrong', () => {
  // A page missing a member and naming an extra one is caught: the checker
  // itself must not pass everything.
  const broken = PAGE.replace('| `p.step()` |', '| `p.stepp()` |');
  assert.notEqual(broken, PAGE);
  const pipeline = documented(broken).get('freshet').get('Pipeline').members;
  assert.ok(pipeline.includes('stepp') && !pipeline.includes('step'));
  const codes = documented(PAGE).get('freshet').get('ErrorCode').members;
  assert.deepEqual(codes.sort(), declared().get('freshet').get('ErrorCode'));
});
