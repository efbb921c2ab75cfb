// Routes outside the metered API: health, hosted images.
import Type from 'typebox';
import { CONTENT_TYPES } from '../../render/renderer.ts';
import { problemResponses, REQUEST_ID_HEADER, stringEnum } from './common.ts';

export const healthSchema = {
  operationId: 'getHealth',
  tags: ['Service'],
  summary: 'Liveness',
  description: 'Answers while the process runs.',
  response: {
    200: {
      description: 'The process is up.',
      headers: REQUEST_ID_HEADER,
      content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ok') }) } },
    },
  },
};

const Checks = Type.Record(Type.String(), stringEnum(['ok', 'down', 'warming'] as const), {
  description: 'State of each dependency: database, images, redis (when configured), render.',
});

export const readySchema = {
  operationId: 'getReadiness',
  tags: ['Service'],
  summary: 'Readiness',
  description: 'Ready when every dependency answers and the render workers are warm.',
  response: {
    200: {
      description: 'Ready for traffic.',
      headers: REQUEST_ID_HEADER,
      content: {
        'application/json': { schema: Type.Object({ status: Type.Literal('ready'), checks: Checks }) },
      },
    },
    503: {
      description: 'Problem `service_unavailable`, with the failing checks.',
      headers: REQUEST_ID_HEADER,
      content: {
        'application/problem+json': {
          schema: Type.Object({
            type: Type.String(),
            title: Type.String(),
            status: Type.Integer(),
            detail: Type.String(),
            code: Type.Literal('service_unavailable'),
            requestId: Type.String(),
            checks: Checks,
          }),
        },
      },
    },
  },
};

const IMAGE_CONTENT = Object.fromEntries(
  Object.values(CONTENT_TYPES).map((t) => [t.split(';')[0], { schema: Type.String({ format: 'binary' }) }]),
);

export const imageSchema = {
  operationId: 'getHostedImage',
  tags: ['Screenshots'],
  summary: 'A hosted image',
  description: 'An image stored by `returnType=url` (disk image store). Immutable: cached for a year.',
  params: Type.Object({
    key: Type.String({ description: 'Content hash and extension, as in the URL returned.' }),
  }),
  response: {
    200: {
      description: 'The stored bytes.',
      headers: { ...REQUEST_ID_HEADER, ETag: Type.String({ description: 'The content hash, quoted.' }) },
      content: IMAGE_CONTENT,
    },
    206: {
      description: 'One byte range of the image (`Range: bytes=…`, honoured unless `If-Range` names another).',
      headers: {
        ...REQUEST_ID_HEADER,
        'Content-Range': Type.String({ description: '`bytes start-end/size`' }),
      },
      content: IMAGE_CONTENT,
    },
    304: {
      description: 'The copy named by `If-None-Match` or `If-Modified-Since` is current; no body.',
      headers: REQUEST_ID_HEADER,
    },
    ...problemResponses({ 404: ['not_found'], 412: ['precondition_failed'] }),
    ...problemResponses(
      { 416: ['range_not_satisfiable'] },
      { 'Content-Range': Type.String({ description: '`bytes */size`' }) },
    ),
  },
};
