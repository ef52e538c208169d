// Feldera's pipeline API on the edge worker, on real workerd over HTTP:
// GET /v0/config, POST and GET /v0/pipelines, PUT / PATCH / GET / DELETE of
// one pipeline with Feldera's body and fields. The request and response
// shapes are Feldera's, from its openapi.json (paths /v0/config,
// /v0/pipelines, /v0/pipelines/{pipeline_name}; components.schemas
// Configuration, PipelineSelectedInfo, ProgramInfo, Relation, Field,
// ColumnType, SqlCompilerMessage, ErrorResponse) and its Python client
// (python/feldera/rest/feldera_client.py: create_pipeline,
// create_or_update_pipeline and patch_pipeline send the bodies below;
// _wait_for_compilation reads program_status and program_error).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import '../js/compiled_wasm_hooks.mjs';  // program_info.js imports the package's workerd entry (.wasm as a module)
import { assertError, edgeWorker } from './support.mjs';

const SQL = `CREATE TABLE students (name VARCHAR NOT NULL PRIMARY KEY, id INT NOT NULL);
CREATE TABLE "Grades" (student_id INT NOT NULL, science INT, maths DOUBLE, at TIMESTAMP, grade DECIMAL(5, 2), note VARCHAR(20));
CREATE MATERIALIZED VIEW average AS SELECT name, science FROM students JOIN "Grades" ON id = student_id;
CREATE VIEW plain AS SELECT name FROM students;`;

/** The body feldera_client.py's create_or_update_pipeline sends (PipelineBuilder's defaults; RuntimeConfig.default().to_dict()). */
const feldera = (name, sql = SQL, extra = {}) => ({
  name,
  program_code: sql,
  udf_rust: '',
  udf_toml: '',
  program_config: { profile: 'optimized', runtime_version: null, use_platform_compiler: false },
  runtime_config: { tracing: false, tracing_endpoint_jaeger: '', cpu_profiler: true, max_buffering_delay_usecs: 0,
                    min_batch_size_records: 0, resources: { cpu_cores_max: null, cpu_cores_min: null, memory_mb_max: null,
                                                            memory_mb_min: null, storage_class: null, storage_mb_max: null } },
  description: '',
  tags: [],
  ...extra,
});

/** PipelineSelectedInfo's required fields (openapi.json). */
const REQUIRED = ['id', 'name', 'created_at', 'version', 'platform_version', 'program_version', 'program_status',
  'program_status_since', 'refresh_version', 'storage_status', 'deployment_status', 'deployment_status_since',
  'deployment_desired_status', 'deployment_desired_status_since', 'deployment_resources_status',
  'deployment_resources_status_since', 'deployment_resources_desired_status', 'deployment_resources_desired_status_since'];

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());


const root = async (method, path = '', body) => {
  const response = await fetch(`${edge.url}/v0/pipelines${path}`, {
    method, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
};

test('GET /v0/config: Feldera\'s Configuration, with Freshet\'s version', async () => {
  const response = await fetch(`${edge.url}/v0/config`);
  assert.equal(response.status, 200);
  const config = await response.json();
  for (const field of ['posthog', 'conceptualhq', 'product_fruits', 'edition', 'version', 'revision', 'runtime_revision',
    'changelog_url', 'build_info', 'build_source']) assert.ok(field in config, field);
  assert.equal(config.edition, 'Open source');  // one of the two FelderaEdition values the client accepts
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal(config.version, pkg.version);
});

test('POST /v0/pipelines creates a Stopped pipeline (201) with Feldera\'s fields; again is 409 DuplicateName', async () => {
  const created = await root('POST', '', feldera('school', SQL, { description: 'grades', tags: ['team:ml'], udf_rust: 'fn f() {}' }));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const info = created.body;
  for (const field of REQUIRED) assert.ok(field in info, field);
  assert.equal(info.name, 'school');
  assert.equal(info.description, 'grades');
  assert.deepEqual(info.tags, ['team:ml']);
  assert.equal(info.program_status, 'Success');
  assert.deepEqual(info.program_error, { sql_compilation: { exit_code: 0, messages: [] }, rust_compilation: null, system_error: null });
  assert.equal(info.deployment_status, 'Stopped');
  assert.equal(info.deployment_desired_status, 'Stopped');
  assert.equal(info.deployment_resources_status, 'Stopped');
  assert.equal(info.deployment_runtime_status, null);
  assert.equal(info.storage_status, 'Cleared');
  assert.equal(info.deployment_error, null);
  assert.equal(info.version, 1);
  assert.equal(info.program_version, 1);
  assert.deepEqual(info.runtime_config, feldera('x').runtime_config);
  assert.deepEqual(info.program_config, feldera('x').program_config);
  assert.match(info.warnings.join('\n'), /udf_rust/, 'what Freshet cannot honour is reported');
  // program_info: Feldera's ProgramInfo, from the compiler's description.
  const { inputs, outputs } = info.program_info.schema;
  assert.deepEqual(inputs.map((relation) => [relation.name, relation.case_sensitive]), [['students', false], ['Grades', true]]);
  // Feldera lists its system view error_view among the outputs (materialized here: it answers snapshots and queries).
  assert.deepEqual(outputs.map((relation) => [relation.name, relation.materialized]),
    [['average', true], ['plain', false], ['error_view', true]]);
  assert.deepEqual(inputs[0].primary_key, ['name']);
  assert.deepEqual(inputs[0].fields[0], { name: 'name', case_sensitive: false, columntype: { type: 'VARCHAR', nullable: false, precision: -1 }, unused: false });
  assert.deepEqual(inputs[1].fields.map((field) => field.columntype),
                   [{ type: 'INTEGER', nullable: false }, { type: 'INTEGER', nullable: true }, { type: 'DOUBLE', nullable: true },
                    { type: 'TIMESTAMP', nullable: true, precision: 0 }, { type: 'DECIMAL', nullable: true, precision: 5, scale: 2 },
                    { type: 'VARCHAR', nullable: true, precision: 20 }]);
  assert.deepEqual(info.program_info.input_connectors, {});
  const again = await root('POST', '', feldera('school'));
  assertError(again, 409, 'DuplicateName', /already exists/);
  assertError(await root('POST', '', { program_code: SQL }), 400, 'INVALID_REQUEST', /'name' is missing/);
  assertError(await root('POST', '', feldera('bad name')), 400, 'INVALID_REQUEST', /not a pipeline name/);
});

test('table properties and compile warnings in Feldera\'s form: Relation.properties, SqlCompilerMessage with warning: true', async (t) => {
  const sql = "CREATE TABLE m (id INT) WITH ('materialized' = 'true', 'frobnicate' = 'x');\nCREATE VIEW w AS SELECT * FROM m;";
  const created = await edge.call('PUT', 'props', feldera('props', sql));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  if (created.body.program_status === 'SqlError' && /properties/.test(created.body.program_error.sql_compilation.messages[0].message)) {
    await edge.call('DELETE', 'props');
    t.skip('this engine has no WITH (...) properties yet (branch i19-sqlprops)');
    return;
  }
  const [table] = created.body.program_info.schema.inputs;
  assert.equal(table.materialized, true);
  assert.deepEqual(Object.keys(table.properties).sort(), ['frobnicate', 'materialized']);
  assert.equal(table.properties.materialized.value, 'true');
  assert.equal(created.body.program_status, 'Success');
  const [warning] = created.body.program_error.sql_compilation.messages;
  assert.equal(warning.warning, true);
  assert.match(warning.message, /frobnicate/);
  assert.equal(warning.start_line_number, 1);
  assert.equal((await edge.call('DELETE', 'props')).status, 200);
});

test('program_info and program_error map a description\'s properties and warnings (ProgramDescription of i19-sqlprops)', async () => {
  const { programInfo, programWarnings } = await import('../../edge-worker/program_info.js');
  const description = {
    tables: [{ name: 'm', columns: [{ name: 'id', type: 'INTEGER', nullable: true }], primaryKey: [], materialized: true,
               properties: { materialized: 'true', frobnicate: 'x' }, connectors: [], lateness: [] }],
    views: [], readsNow: false, warnings: [{ message: "unknown property 'frobnicate'", line: 1, column: 47 }],
  };
  const [table] = programInfo(description).schema.inputs;
  assert.equal(table.materialized, true);
  const nowhere = { start_line_number: 0, start_column: 0, end_line_number: 0, end_column: 0 };
  assert.deepEqual(table.properties.frobnicate, { value: 'x', key_position: nowhere, value_position: nowhere });
  assert.deepEqual(programWarnings(description).sql_compilation.messages, [{
    start_line_number: 1, start_column: 47, end_line_number: 1, end_column: 47, warning: true, error_type: 'Warning',
    message: "unknown property 'frobnicate'", snippet: null,
  }]);
});

test('GET /v0/pipelines lists every pipeline; ?selector=status leaves out the program', async () => {
  assert.equal((await edge.call('PUT', 'listed', feldera('listed'))).status, 201);
  const all = await root('GET');
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.map((pipeline) => pipeline.name).sort(), ['listed', 'school']);
  assert.equal(all.body.find((pipeline) => pipeline.name === 'listed').program_code, SQL);
  const status = await root('GET', '?selector=status');
  for (const pipeline of status.body) {
    for (const field of REQUIRED) assert.ok(field in pipeline, field);
    for (const field of ['program_code', 'program_info', 'runtime_config', 'udf_rust']) assert.ok(!(field in pipeline), field);
  }
  assertError(await root('GET', '?selector=some'), 400, 'INVALID_REQUEST', /selector/);
  assert.equal((await edge.call('DELETE', 'listed')).status, 200);
  assert.deepEqual((await root('GET')).body.map((pipeline) => pipeline.name), ['school']);
});

test('a program that does not compile is stored with its SQL errors (Feldera\'s SqlCompilerMessage) and cannot start', async () => {
  const created = await edge.call('PUT', 'broken', feldera('broken', 'CREATE TABLE t (id INT,\n  x FROB);'));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.program_status, 'SqlError');
  assert.equal(created.body.program_info, null);
  const [message] = created.body.program_error.sql_compilation.messages;
  assert.deepEqual({ ...message, snippet: undefined }, {
    start_line_number: 2, start_column: 5, end_line_number: 2, end_column: 5, warning: false,
    error_type: 'SQL error', message: "line 2, column 5: expected a type, found 'FROB'", snippet: undefined,
  });
  assert.equal(message.snippet, '    2|  x FROB);\n          ^\n');
  assertError(await edge.call('POST', 'broken/start'), 400, 'CannotStartWithCompilationError');
  // Fixed by a PUT: the program version moves on and it compiles.
  const fixed = await edge.call('PUT', 'broken', feldera('broken', 'CREATE TABLE t (id INT);'));
  assert.equal(fixed.status, 200);
  assert.equal(fixed.body.program_status, 'Success');
  assert.deepEqual([fixed.body.version, fixed.body.program_version], [2, 2]);
});

test('PATCH replaces the fields given and keeps the others; only a stopped pipeline is updated', async () => {
  // feldera_client.py patch_pipeline sends every field, None as null.
  const patch = { program_code: null, udf_rust: null, udf_toml: null, program_config: null, runtime_config: null,
                  description: 'patched', tags: null };
  const patched = await edge.call('PATCH', 'school', patch);
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(patched.body.description, 'patched');
  assert.deepEqual(patched.body.tags, ['team:ml']);
  assert.equal(patched.body.program_code, SQL);
  assert.deepEqual([patched.body.version, patched.body.program_version], [2, 1]);
  const reprogrammed = await edge.call('PATCH', 'school', { ...patch, program_code: `${SQL}\nCREATE VIEW more AS SELECT id FROM students;` });
  assert.deepEqual([reprogrammed.body.version, reprogrammed.body.program_version], [3, 2]);
  assert.equal((await edge.call('POST', 'school/start')).status, 202);
  assertError(await edge.call('PATCH', 'school', patch), 400, 'UpdateRestrictedToStopped', /only be updated while stopped/);
  assertError(await edge.call('PUT', 'school', feldera('school')), 400, 'UpdateRestrictedToStopped');
  assertError(await edge.call('PUT', 'school', feldera('other')), 400, 'INVALID_REQUEST', /renaming/);
  assertError(await edge.call('PATCH', 'nobody', patch), 404, 'UnknownPipelineName');
});

test('an unknown pipeline is Feldera\'s 404 UnknownPipelineName; POST on a pipeline path is not a route', async () => {
  const unknown = await edge.call('GET', 'ghost');
  assertError(unknown, 404, 'UnknownPipelineName', /^Unknown pipeline name 'ghost'/);
  assert.deepEqual(unknown.body.details, { pipeline_name: 'ghost' });
  assertError(await edge.call('POST', 'ghost', feldera('ghost')), 405, 'METHOD_NOT_ALLOWED');
  assertError(await root('DELETE'), 405, 'METHOD_NOT_ALLOWED');
});

test('Freshet\'s short body (no name) still creates a running pipeline at once, with Feldera\'s fields too', async () => {
  const created = await edge.call('PUT', 'short', { program_code: 'CREATE TABLE t (id INT); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;' });
  assert.equal(created.status, 201);
  assert.equal(created.body.state, 'running');
  assert.equal(created.body.deployment_status, 'Running');
  assert.equal(created.body.storage_status, 'InUse');
  assert.equal(created.body.program_status, 'Success');
  assert.equal((await edge.call('POST', 'short/ingress/t', '{"insert":{"id":1}}')).status, 200);
  assertError(await edge.call('PUT', 'short', { program_code: 'CREATE TABLE t (id FROB);' }), 400, 'SQL_ERROR');
});
