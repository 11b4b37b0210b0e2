// "Sign in with QR": starts an anonymous QR challenge for ?tenant= (action ?action=, default signIn), shows the code
// and watches it go unclaimed → claimed → approved or declined, refreshing it before it expires.
// Updates come from a channel: REST polling (default) or, with ?mode=ws, the WebSocket /v1/ws-v1-challenge
// (subprotocol authsignal-ws); when the WebSocket cannot be opened the page falls back to polling.
import {
  ApiError, formatRemaining, localDeadline, postJSON, queryParameter, recordState, sleep, tenantAuthorization,
} from "/web/assent-api.js";

const POLL_INTERVAL_MS = 1000;
const MAX_POLL_BACKOFF_MS = 10000;
/** Unattended refreshes before the page stops and waits for "New code" (about 40 minutes at 2-minute codes). */
const MAX_AUTO_REFRESHES = 20;

/** The page's view of a verify answer: unclaimed, claimed, approved, rejected (declined, or claimed then expired), expired. */
function stateOf(result) {
  if (result.isVerified) return "approved";
  if (result.isClaimed) return result.isConsumed ? "rejected" : "claimed";
  return result.isConsumed ? "expired" : "unclaimed";
}

/** REST polling: POST challenge/qr-code, then POST verify/qr-code with the device code every second. */
class PollingChannel {
  constructor(tenantId, action, listener) {
    this.name = "polling";
    this.description = "Live updates: polling every second.";
    this.tenantId = tenantId;
    this.action = action;
    this.listener = listener;
    this.controller = null;
  }

  async create() {
    this.close();
    const controller = new AbortController();
    this.controller = controller;
    const authorization = tenantAuthorization(this.tenantId);
    let started;
    try {
      started = await postJSON("/v1/client/challenge/qr-code", { action: this.action }, authorization,
        { signal: controller.signal });
    } catch (error) {
      if (!controller.signal.aborted) this.listener.failed(error);
      return;
    }
    if (controller.signal.aborted) return;
    const { data, serverNow } = started;
    this.listener.created({
      challengeId: data.challengeId, expiresAt: data.expiresAt, serverNow, qrPayload: data.qrPayload,
    });
    this.poll(data.challengeId, data.deviceCode, authorization, controller.signal);
  }

  async poll(challengeId, deviceCode, authorization, signal) {
    let delay = POLL_INTERVAL_MS;
    while (!signal.aborted) {
      await sleep(delay, signal);
      if (signal.aborted) return;
      try {
        const { data } = await postJSON("/v1/client/verify/qr-code", { challengeId, deviceCode }, authorization,
          { signal });
        if (signal.aborted) return;
        delay = POLL_INTERVAL_MS;
        const state = stateOf(data);
        this.listener.state({ challengeId, state, accessToken: data.accessToken });
        if (state === "approved" || state === "rejected" || state === "expired") return;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          this.listener.state({ challengeId, state: "expired" });
          return;
        }
        if (error instanceof ApiError && error.isTransient) {
          this.listener.trouble(error);
          delay = Math.min(delay * 2, MAX_POLL_BACKOFF_MS);
          continue;
        }
        this.listener.failed(error);
        return;
      }
    }
  }

  close() {
    this.controller?.abort();
    this.controller = null;
  }
}

/**
 * WebSocket: `CREATE_CHALLENGE` → `CHALLENGE_CREATED`, then `STATE_CHANGE` messages (claimed, approved, rejected).
 * A new code is another CREATE_CHALLENGE on the same socket. `listener.unavailable()` when the socket cannot be
 * opened or drops while a code is still open (the protocol has no way to watch an existing challenge again).
 */
class WebSocketChannel {
  constructor(tenantId, action, listener) {
    this.name = "websocket";
    this.description = "Live updates: WebSocket.";
    this.tenantId = tenantId;
    this.action = action;
    this.listener = listener;
    this.socket = null;
    this.wanted = false;
  }

  create() {
    this.wanted = true;
    const socket = this.socket;
    if (socket && socket.readyState === WebSocket.OPEN) {
      this.send();
    } else if (!socket || socket.readyState !== WebSocket.CONNECTING) {
      this.connect();
    } // else: CREATE_CHALLENGE goes out on open.
  }

  connect() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    let socket;
    try {
      socket = new WebSocket(`${scheme}//${window.location.host}/v1/ws-v1-challenge`,
        ["authsignal-ws", `x.authsignal.tenant.${this.tenantId}`]);
    } catch (error) {
      this.listener.unavailable(error);
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket === socket && this.wanted) this.send();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket === socket) this.receive(event.data);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.wanted) this.listener.unavailable(new ApiError(0, "network_error", "The WebSocket closed."));
    });
  }

  send() {
    this.socket.send(JSON.stringify({
      type: "CREATE_CHALLENGE", data: { challengeType: "QR_CODE", actionCode: this.action },
    }));
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const data = message?.data || {};
    if (message?.type === "CHALLENGE_CREATED") {
      this.listener.created({
        challengeId: data.challengeId, expiresAt: data.expiresAt, serverNow: Date.now(), qrPayload: data.qrPayload,
      });
    } else if (message?.type === "STATE_CHANGE") {
      const state = data.state === "approved" || data.state === "claimed" || data.state === "rejected"
        ? data.state : null;
      if (state) this.listener.state({ challengeId: data.challengeId, state, accessToken: data.accessToken });
      if (state === "approved" || state === "rejected") this.wanted = false;
    } else if (message?.type === "ERROR" || data.errorCode) {
      this.listener.failed(new ApiError(400, data.errorCode || "api_error",
        data.errorDescription || data.error || "The server refused the request."));
    }
  }

  close() {
    this.wanted = false;
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
  }
}

// MARK: - The page

const main = document.getElementById("main");
const qr = document.getElementById("qr");
const placeholder = document.getElementById("qr-placeholder");
const badge = document.getElementById("qr-badge");
const expiry = document.getElementById("expiry");
const countdown = document.getElementById("countdown");
const statusLine = document.getElementById("status");
const result = document.getElementById("result");
const accessToken = document.getElementById("access-token");
const newCode = document.getElementById("new-code");
const manual = document.getElementById("manual");
const payload = document.getElementById("payload");
const mode = document.getElementById("mode");

const tenantId = queryParameter("tenant");
const action = queryParameter("action", "signIn");

let channel = null;
let current = null; // { challengeId, deadline, lead, state }
let autoRefreshes = 0;
let refreshTimer = null;
let tickTimer = null;

function show(state, message) {
  recordState(main, state);
  statusLine.textContent = message;
  manual.hidden = state !== "unclaimed"; // the text alternative of a code someone may still scan
}

function stopTimers() {
  clearTimeout(refreshTimer);
  clearInterval(tickTimer);
  refreshTimer = null;
  tickTimer = null;
}

function describe(error) {
  switch (error?.code) {
    case "network_error": return "The server could not be reached. Check your connection, then choose New code.";
    case "unauthorized": return "The server did not accept this tenant. Check the tenant ID in the address.";
    case "invalid_request": return `The server refused the request: ${error.message}`;
    case "too_many_requests": case "rate_limited":
      return "Too many codes were requested. Wait a moment, then choose New code.";
    default: return `Something went wrong: ${error?.message || "unknown error"}. Choose New code to try again.`;
  }
}

function refresh({ automatic = false } = {}) {
  stopTimers();
  if (!automatic) autoRefreshes = 0;
  current = null;
  result.hidden = true;
  accessToken.textContent = "";
  badge.hidden = true;
  qr.hidden = true;
  placeholder.hidden = false;
  placeholder.textContent = "Getting a code…";
  expiry.hidden = true;
  payload.textContent = "";
  newCode.disabled = true;
  show("loading", automatic ? "This code is about to expire. Getting a new one…" : "Getting a code…");
  channel.create();
}

function tick() {
  if (!current) return;
  const remaining = current.deadline - Date.now();
  countdown.textContent = formatRemaining(remaining);
  // The server reports expiry through polling; a WebSocket may say nothing, so the clock decides too.
  if (remaining < -2000 && (current.state === "unclaimed" || current.state === "claimed")) expire();
}

function expire() {
  if (current?.state === "unclaimed" && autoRefreshes < MAX_AUTO_REFRESHES) {
    autoRefreshes += 1;
    refresh({ automatic: true });
    return;
  }
  finish("expired", "This code has expired. Choose New code to get another one.", "Expired");
}

function finish(state, message, badgeText) {
  stopTimers();
  channel.close();
  if (current) current.state = state;
  expiry.hidden = true;
  badge.textContent = badgeText;
  badge.hidden = false;
  newCode.disabled = false;
  show(state, message);
}

const listener = {
  created({ challengeId, expiresAt, serverNow, qrPayload }) {
    const deadline = localDeadline(expiresAt, serverNow);
    const ttl = deadline - Date.now();
    current = { challengeId, deadline, state: "unclaimed" };
    placeholder.textContent = "Loading the code…";
    qr.src = `/v1/client/challenge/qr-code/${encodeURIComponent(challengeId)}/image.svg`
      + `?tenant=${encodeURIComponent(tenantId)}`;
    payload.textContent = qrPayload || challengeId;
    expiry.hidden = false;
    newCode.disabled = false;
    show("unclaimed", "Scan the code with your phone.");
    tick();
    tickTimer = setInterval(tick, 500);
    // Refresh before expiry (10% of the lifetime, 3 to 30 seconds early), but never a code someone has claimed.
    const lead = Math.min(30000, Math.max(3000, ttl * 0.1));
    refreshTimer = setTimeout(() => {
      if (current?.challengeId === challengeId && current.state === "unclaimed") expire();
    }, Math.max(0, ttl - lead));
  },

  state({ challengeId, state, accessToken: token }) {
    if (!current || challengeId !== current.challengeId || current.state === state) return;
    if (current.state !== "unclaimed" && current.state !== "claimed") return; // already finished
    switch (state) {
      case "unclaimed":
        current.state = state;
        show("unclaimed", "Scan the code with your phone.");
        break;
      case "claimed":
        current.state = state;
        clearTimeout(refreshTimer);
        show("claimed", "Check your phone — approve the sign-in there.");
        break;
      case "approved":
        accessToken.textContent = token || "";
        result.hidden = !token;
        finish("approved", "Approved — you are signed in.", "Approved");
        autoRefreshes = 0;
        break;
      case "rejected":
        if (Date.now() >= current.deadline - 1500) {
          finish("expired", "The code expired before it was approved. Choose New code to try again.", "Expired");
        } else {
          finish("declined", "Declined on the phone. Choose New code to try again.", "Declined");
        }
        break;
      case "expired":
        expire();
        break;
    }
  },

  trouble() {
    if (current) statusLine.textContent = "Connection problem — retrying…";
  },

  failed(error) {
    current = null;
    finish("error", describe(error), "");
    badge.hidden = true;
    qr.hidden = true;
    placeholder.hidden = false;
    placeholder.textContent = "No code";
  },

  unavailable() {
    if (channel.name !== "websocket") return;
    channel.close();
    channel = new PollingChannel(tenantId, action, listener);
    mode.textContent = "Live updates: polling every second (the WebSocket was not available).";
    refresh({ automatic: true });
  },
};

qr.addEventListener("load", () => {
  placeholder.hidden = true;
  qr.hidden = false;
});
qr.addEventListener("error", () => {
  if (!qr.getAttribute("src")) return;
  qr.hidden = true;
  placeholder.hidden = false;
  placeholder.textContent = "The code image could not be loaded.";
  manual.open = true;
});
newCode.addEventListener("click", () => refresh());

if (!tenantId) {
  show("error", "This page needs a tenant: add ?tenant=<your tenant ID> to its address.");
  placeholder.textContent = "No code";
} else if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(action)) {
  show("error", "The action may hold only letters, digits and _ . : - (at most 100).");
  placeholder.textContent = "No code";
} else {
  channel = queryParameter("mode") === "ws"
    ? new WebSocketChannel(tenantId, action, listener)
    : new PollingChannel(tenantId, action, listener);
  mode.textContent = channel.description;
  refresh();
}
