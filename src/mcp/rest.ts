// The MCP tools are clients of the REST API: each call is one REST request made with the caller's
// key, so credits, rate limits, refusals, codes and messages are the REST ones by construction.

export interface RestRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/v1/usage`. */
  url: string;
  /** JSON body (POST). */
  body?: unknown;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** Sends one request to the REST API as the MCP caller. */
export type RestCaller = (request: RestRequest) => Promise<RestResponse>;
