// The version switcher of each reference page: the links to the other versions keep the reader's place
// (Redoc's URL fragment, the same in every version since paths, tags and operationIds are), and a note
// says whether the operation in view changed between this version and the other, linking the entry
// of the migration guide.
import { pairName } from "./docs-site.mjs";
import { operationSections } from "./migration-guide.mjs";
import { findOperation } from "./openapi-walk.mjs";

/**
 * What the page's script needs: the operationIds (Redoc's fragment holds them lowercased:
 * `#/banking/listdirectdebits`) and, for every other version, the guide page of the pair and, per
 * operation that changed, the anchor of its section in the guide.
 */
export function switcherData({ versions, current, guides, documents }) {
  const others = {};
  for (const other of versions.filter((v) => v !== current)) {
    const [from, to] = [current, other].sort((a, b) => versions.indexOf(a) - versions.indexOf(b));
    const name = pairName(from, to);
    const operations = {};
    for (const [label, anchor] of Object.entries(operationSections(guides[name]))) {
      const id = findOperation(documents[current], label)?.operationId;
      if (id) operations[id.toLowerCase()] = anchor;
    }
    others[other] = { guide: `changes/${name}.guide.html`, pair: `${from} → ${to}`, operations };
  }
  const operationIds = {};
  for (const item of Object.values(documents[current].paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId) operationIds[operation.operationId.toLowerCase()] = operation.operationId;
    }
  }
  return { current, operationIds, others };
}

// Runs in the page. Redoc writes the place into the fragment with history.replaceState while the
// reader scrolls (no hashchange event), so the script also listens to the history calls.
const SCRIPT = `(() => {
  const data = JSON.parse(document.getElementById("cdas-switcher-data").textContent);
  const note = document.querySelector("[data-testid=version-note]");
  const operationInView = () => {
    const last = decodeURIComponent(location.hash).split("/").pop().toLowerCase();
    return data.operationIds[last] ? last : undefined;
  };
  const update = () => {
    for (const link of document.querySelectorAll("a[data-switch-version]")) {
      link.href = link.dataset.switchVersion + ".html" + location.hash;
    }
    const op = operationInView();
    if (!op) { note.textContent = ""; return; }
    const parts = Object.entries(data.others).map(([version, other]) => {
      const anchor = other.operations[op];
      return anchor
        ? '<a data-testid="changed-' + version + '" href="' + other.guide + '#' + anchor + '">changed in ' + other.pair + '</a>'
        : '<span data-testid="same-' + version + '">same in ' + version + '</span>';
    });
    note.innerHTML = "<code>" + data.operationIds[op] + "</code>: " + parts.join(" · ");
  };
  for (const method of ["pushState", "replaceState"]) {
    const original = history[method].bind(history);
    history[method] = (...args) => { const result = original(...args); update(); return result; };
  }
  addEventListener("hashchange", update);
  update();
})();`;

/** The script and its data, to be placed at the end of the page's body. */
export function switcherScript(data) {
  const json = JSON.stringify(data).replaceAll("<", "\\u003c");
  return `<script type="application/json" id="cdas-switcher-data">${json}</script>\n<script>${SCRIPT}</script>`;
}
