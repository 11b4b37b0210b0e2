// The client API calls the demo pages make, and small helpers they share. No dependencies, no build step.

/** A refusal from the server (`errorCode`, `errorDescription`) or a network failure (`network_error`, status 0). */
export class ApiError extends Error {
  constructor(status, code, description) {
    super(description || code);
    this.status = status;
    this.code = code;
  }

  /** Worth retrying: the network, the server being busy, or a gateway in between. */
  get isTransient() {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** The browser SDK's tenant credential: `Basic btoa(encodeURIComponent(tenantId))` (no trailing colon). */
export function tenantAuthorization(tenantId) {
  return "Basic " + btoa(encodeURIComponent(tenantId));
}

/** `Bearer <track token>`. */
export function bearerAuthorization(token) {
  return "Bearer " + token;
}

/**
 * POSTs JSON to `/v1/...` and answers `{data, serverNow}`: the decoded body and the server's clock (from `Date`,
 * falling back to this machine's), so expiry countdowns do not depend on the two clocks agreeing.
 * Throws ApiError on anything but a 200 with JSON.
 */
export async function postJSON(path, body, authorization, { signal, timeoutMs = 10000 } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort, { once: true });
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: authorization },
      body: JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
      signal: controller.signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "network_error", "The server could not be reached.");
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status !== 200 || data === null || typeof data !== "object") {
    throw new ApiError(
      response.status,
      data?.errorCode || data?.error || "api_error",
      data?.errorDescription || `The server answered ${response.status}.`,
    );
  }
  const date = Date.parse(response.headers.get("Date") || "");
  return { data, serverNow: Number.isNaN(date) ? Date.now() : date };
}

/**
 * This machine's time when `expiresAt` (ISO-8601, the server's clock) passes, given the server's time `serverNow`.
 * The `Date` header has whole seconds, so a deadline may be up to a second late; pages refresh well before it.
 */
export function localDeadline(expiresAt, serverNow) {
  const expires = Date.parse(expiresAt);
  if (Number.isNaN(expires)) return Date.now() + 60000;
  return Date.now() + Math.max(0, expires - serverNow);
}

/** `m:ss` for a number of milliseconds (never negative). */
export function formatRemaining(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** A query parameter of this page, or `fallback`. */
export function queryParameter(name, fallback = null) {
  const value = new URLSearchParams(window.location.search).get(name);
  return value === null || value === "" ? fallback : value;
}

/**
 * Records the page's state on `<main data-state>` (the CSS keys off it) and appends it to `window.assentStates`, the
 * list of states the page went through (tests read it to prove a transition happened).
 */
export function recordState(main, state) {
  window.assentStates = window.assentStates || [main.dataset.state];
  if (main.dataset.state === state) return;
  main.dataset.state = state;
  window.assentStates.push(state);
}
