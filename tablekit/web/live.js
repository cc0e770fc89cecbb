// Shared by the pages (tablekit/web/app.py's load_page puts it where a page says "live.js",
// before the policy's hashes are taken): the stream of changes from /events opened, then the
// state the page was served with shown at once; "?static" (a screenshot): that state only.
const statusLine = document.getElementById("status");
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
const served = JSON.parse(document.getElementById("served").textContent);
if (served) show(served);  // before the stream's first message, which comes after this script
