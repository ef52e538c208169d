// The routes on the collection of pipelines, /v0/pipelines itself (Feldera's
// list_pipelines and post_pipeline, openapi.json):
//   GET  /v0/pipelines?selector=all|status|status_with_connectors
//        → [PipelineSelectedInfo], each from the pipeline's own object
//   POST /v0/pipelines  body Feldera's PipelineDescr (with `name`)
//        → 201 PipelineInfo, or 409 DuplicateName
// A POST is handed to the object named in the body as an internal POST on
// /v0/pipelines/{name} (the worker refuses that path from outside).

import { checkPipelineName } from './definition.js';
import { HttpError } from './http_errors.js';
import { jsonResponse } from './json.js';
import { pipelineNames } from './pipeline_registry.js';

const SELECTORS = ['all', 'status', 'status_with_connectors'];

/** GET /v0/pipelines. */
export async function listPipelines(env, url) {
  const selector = url.searchParams.get('selector') ?? 'all';
  if (!SELECTORS.includes(selector)) {
    throw new HttpError('INVALID_REQUEST', `'selector' must be ${SELECTORS.join(', ')}, not '${selector}'`);
  }
  const names = await pipelineNames(env);
  const answers = await Promise.all(names.map(async (name) => {
    const response = await stubOf(env, name).fetch(`${url.origin}/v0/pipelines/${name}?selector=${selector}`);
    // A name whose pipeline is gone (deleted while this list was read) is left out.
    return response.status === 200 ? response.json() : null;
  }));
  return jsonResponse(answers.filter(Boolean));
}

/** POST /v0/pipelines. */
export async function createPipeline(env, request, url) {
  const text = await request.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError('INVALID_REQUEST', 'the body must be JSON: { "name": "...", "program_code": "...", ... }');
  }
  if (typeof body?.name !== 'string') throw new HttpError('INVALID_REQUEST', "the body must name the pipeline: 'name' is missing");
  checkPipelineName(body.name);
  return stubOf(env, body.name).fetch(`${url.origin}/v0/pipelines/${body.name}`, {
    method: 'POST', body: text, headers: { 'content-type': 'application/json' },
  });
}

function stubOf(env, name) {
  return env.PIPELINES.get(env.PIPELINES.idFromName(name));
}
