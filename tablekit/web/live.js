// Shared by the pages (tablekit/web/app.py's load_page puts it where a page says "live.js",
// before the policy's hashes are taken): the state the page was served with, shown at once,
// then each change from /events; "?static" (a screenshot) shows the served state, no stream.
const statusLine = document.getElementById("status");
const served = JSON.parse(document.getElementById("served").textContent);
if (served) show(served);
if (new URLSearchParams(location.search).has("static")) {
  statusLine.textContent = "as of " + new Date().toLocaleTimeString();
} else {
  const source = new EventSource("/events");
  source.onmessage = (message) => {
    show(JSON.parse(message.data));
    statusLine.textContent = "live · " + new Date().toLocaleTimeString();
  };
  source.onerror = () => { statusLine.textContent = "reconnecting…"; };
}
