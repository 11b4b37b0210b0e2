// "Approve with push": with ?token=<track token> (the `url` of the backend's track answer is
// {publicURL}/challenge?token=...), starts a push challenge, shows the number to match when the tenant uses number
// matching, and polls until the phone approves or declines, or the request expires.
import {
  ApiError, bearerAuthorization, formatRemaining, localDeadline, postJSON, queryParameter, recordState, sleep,
} from "/web/assent-api.js";

const POLL_INTERVAL_MS = 1000;
const MAX_POLL_BACKOFF_MS = 10000;

const main = document.getElementById("main");
const lead = document.getElementById("lead");
const codeSection = document.getElementById("code-section");
const code = document.getElementById("verification-code");
const expiry = document.getElementById("expiry");
const countdown = document.getElementById("countdown");
const statusLine = document.getElementById("status");
const result = document.getElementById("result");
const accessToken = document.getElementById("access-token");
const sendAgain = document.getElementById("send-again");

const token = queryParameter("token");
let controller = null;
let tickTimer = null;
let deadline = 0;
let waitingMessage = "";

function show(state, message) {
  recordState(main, state);
  statusLine.textContent = message;
}

function describe(error) {
  switch (error?.code) {
    case "expired_token":
      return "This sign-in link has expired. Go back to the app and sign in again.";
    case "invalid_token": case "unauthorized":
      return "This sign-in link is not valid. Go back to the app and sign in again.";
    case "not_found":
      return "No phone is set up for push sign-in on this account yet.";
    case "too_many_requests":
      return "Several requests are already waiting on your phone. Answer or let them expire, then send again.";
    case "rate_limited":
      return "Too many sign-in requests were sent. Wait a moment, then send again.";
    case "network_error":
      return "The server could not be reached. Check your connection, then send again.";
    default:
      return `Something went wrong: ${error?.message || "unknown error"}`;
  }
}

function stop() {
  controller?.abort();
  controller = null;
  clearInterval(tickTimer);
  tickTimer = null;
}

function finish(state, message, { canRetry = false } = {}) {
  stop();
  expiry.hidden = true;
  sendAgain.hidden = !canRetry;
  show(state, message);
}

async function start() {
  stop();
  const current = new AbortController();
  controller = current;
  const authorization = bearerAuthorization(token);
  sendAgain.hidden = true;
  codeSection.hidden = true;
  result.hidden = true;
  lead.textContent = "Sending a request to your phone…";
  show("loading", "Sending a request to your phone…");

  let started;
  try {
    // No action in the body: the server uses the tracked action the token names.
    started = await postJSON("/v1/client/challenge/push", {}, authorization, { signal: current.signal });
  } catch (error) {
    if (current.signal.aborted) return;
    const retry = error instanceof ApiError && (error.isTransient || error.code === "not_found");
    finish("error", describe(error), { canRetry: retry });
    lead.textContent = "The request could not be sent.";
    return;
  }
  const { data, serverNow } = started;
  deadline = localDeadline(data.expiresAt, serverNow);
  // The lead says what happened once; the status line says what to do. A notification is claimed only when one
  // went out (or is queued): when every device's delivery result carries an error, nothing was sent, and the phone
  // sees the request only if its app is opened (devices always pull the pending challenge).
  const results = Array.isArray(data.deliveryResults) ? data.deliveryResults : [];
  const notified = results.length === 0 || results.some((r) => !r.errorCode);
  lead.textContent = notified
    ? "We sent a request to your phone."
    : "No notification could be sent to your phone, but the request is waiting in the app there.";
  if (data.verificationCode) {
    const spoken = data.verificationCode.split("").join(" ");
    code.textContent = data.verificationCode;
    codeSection.hidden = false;
    waitingMessage = `Open the app on your phone and enter ${spoken} there to approve.`;
  } else {
    waitingMessage = "Open the app on your phone to approve it.";
  }
  show("sent", waitingMessage);
  expiry.hidden = false;
  tick();
  tickTimer = setInterval(tick, 500);
  poll(data.challengeId, authorization, current.signal);
}

function tick() {
  countdown.textContent = formatRemaining(deadline - Date.now());
}

async function poll(challengeId, authorization, signal) {
  let delay = POLL_INTERVAL_MS;
  while (!signal.aborted) {
    await sleep(delay, signal);
    if (signal.aborted) return;
    try {
      const { data } = await postJSON("/v1/client/verify/push", { challengeId }, authorization, { signal });
      if (signal.aborted) return;
      delay = POLL_INTERVAL_MS;
      if (data.isVerified) {
        accessToken.textContent = data.accessToken || "";
        result.hidden = !data.accessToken;
        codeSection.hidden = true;
        lead.textContent = "Your phone approved the request.";
        finish("approved", "Approved — you are signed in.");
        return;
      }
      if (data.isConsumed) {
        codeSection.hidden = true;
        if (Date.now() >= deadline - 1500) {
          lead.textContent = "Nobody answered the request on the phone in time.";
          finish("expired", "The request expired. Send again to try once more.", { canRetry: true });
        } else {
          lead.textContent = "The request was declined on the phone.";
          finish("declined", "Declined on the phone.");
        }
        return;
      }
      if (statusLine.textContent !== waitingMessage) statusLine.textContent = waitingMessage;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.isTransient) {
        statusLine.textContent = "Connection problem — retrying…";
        delay = Math.min(delay * 2, MAX_POLL_BACKOFF_MS);
        continue;
      }
      codeSection.hidden = true;
      finish("error", describe(error));
      return;
    }
  }
}

sendAgain.addEventListener("click", () => start());

if (!token) {
  lead.textContent = "Nothing to approve yet.";
  show("error", "This page needs the sign-in link from your app (it ends in ?token=…).");
} else {
  start();
}
