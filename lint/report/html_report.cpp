// `roce-lint check --format html`: one self-contained page an operator attaches to a ticket or
// CI keeps as an artifact. No external asset (a Content-Security-Policy of default-src 'none'
// enforces it in the browser): the node grid coloured by each node's worst finding, then every
// finding with expected, found and the fix command; two filters (check, lowest severity) in a
// few lines of inline script that only reads the page's own data-* attributes. The policy
// allows that script and the style by their SHA-256 (csp_hash.h), not 'unsafe-inline'.
//
// Every text from the plan, the exporters or a finding passes escape::HtmlText (rocewatch/escape.h); the
// script never turns text into markup. Element ids are node indexes, never names.

#include <algorithm>
#include <map>
#include <set>

#include "lint/i18n/catalogue.h"
#include "lint/report/csp_hash.h"
#include "rocewatch/escape.h"
#include "lint/report/node_report.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::report {
namespace {

std::string Say(Language lang, i18n::MessageId id, std::initializer_list<i18n::Arg> args = {}) {
  return escape::HtmlText(i18n::Render(lang, id, args));
}

constexpr const char* kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em}
.summary{margin:.3em 0 1em;color:#444}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(9em,1fr));gap:.4em;margin-bottom:1.2em}
.node{display:block;padding:.5em;border-radius:4px;color:#fff;text-decoration:none;overflow-wrap:anywhere}
.node small{display:block;opacity:.9}
.node.dim{opacity:.3}
.st-passed{background:#2e7d32}.st-unreachable{background:#616161}
.st-critical{background:#6a0000}.st-error{background:#c62828}
.st-warning{background:#f9a825;color:#222}.st-info{background:#1565c0}
.filters{margin:.5em 0}
.filters label{margin-right:1em}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
tr.node-head th{background:#eee}
td.sev{font-weight:bold;white-space:nowrap}
td.where{white-space:nowrap}
.sev-critical td.sev{color:#6a0000}.sev-error td.sev{color:#c62828}
.sev-warning td.sev{color:#a06800}.sev-info td.sev{color:#1565c0}
code{white-space:pre-wrap;font-size:.92em}
)css";

// Reads only data-* attributes and the filters' values; writes hidden flags, classes and one
// count (textContent). No innerHTML, no eval.
constexpr const char* kScript = R"js(
(function () {
  var rank = {info: 0, warning: 1, error: 2, critical: 3};
  var check = document.getElementById('f-check');
  var severity = document.getElementById('f-severity');
  function apply() {
    var rows = document.querySelectorAll('tr.finding');
    var shown = {};
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (check.value === '' || r.dataset.check === check.value) &&
               rank[r.dataset.severity] >= rank[severity.value];
      r.hidden = !ok;
      if (ok) { shown[r.dataset.node] = true; n++; }
    }
    var heads = document.querySelectorAll('tr.node-head');
    for (var h = 0; h < heads.length; h++) heads[h].hidden = !shown[heads[h].dataset.node];
    var cells = document.querySelectorAll('.node');
    for (var j = 0; j < cells.length; j++) {
      var c = cells[j];
      c.classList.toggle('dim', c.dataset.failed === '1' && !shown[c.dataset.node]);
    }
    document.getElementById('shown').textContent = String(n);
  }
  // A filter may come with the link: report.html#check=qos.trust&severity=error.
  location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
    var kv = pair.split('=');
    var select = kv[0] === 'check' ? check : kv[0] === 'severity' ? severity : null;
    if (!select || kv.length !== 2) return;
    var value;
    try { value = decodeURIComponent(kv[1]); } catch (e) { return; }  // a malformed %-escape
    for (var k = 0; k < select.options.length; k++)
      if (select.options[k].value === value) select.value = value;
  });
  check.addEventListener('change', apply);
  severity.addEventListener('change', apply);
  apply();
  document.body.dataset.ready = '1';
})();
)js";

struct NodeGroup {
  std::string name;  // plan node name; empty for cluster-wide findings
  std::vector<const Finding*> findings;
};

std::string Where(const Finding& f) {
  std::string where;
  for (const std::string* part : {&f.device, &f.port, &f.netdev}) {
    if (part->empty()) continue;
    if (!where.empty()) where += ' ';
    where += *part;
  }
  if (where.empty()) where = f.location;
  return where;
}

void WriteGrid(std::ostream& out, const CheckRun& run, Language lang,
               const std::vector<NodeGroup>& groups) {
  out << "<div class=\"grid\" id=\"grid\">\n";
  for (std::size_t i = 0; i < run.plan->nodes.size(); ++i) {
    const plan::Node& node = run.plan->nodes[i];
    const NodeGroup& group = groups[i];
    NodeState state = StateOf(run, node);
    std::string css = "passed";
    std::string label = i18n::Render(lang, "html.passed");
    if (state == NodeState::kUnreachable) {
      css = "unreachable";
      label = i18n::Render(lang, "html.unreachable");
    } else if (state == NodeState::kFailed) {
      Severity worst = Severity::kInfo;
      for (const Finding* f : group.findings) worst = std::max(worst, f->severity);
      css = std::string(SeverityName(worst));
      label = SeverityText(worst, lang) + " × " + std::to_string(group.findings.size());
    }
    out << "<a class=\"node st-" << escape::HtmlText(css) << "\" href=\"#n" << i << "\" data-node=\"" << i
        << "\" data-failed=\"" << (group.findings.empty() ? 0 : 1) << "\">" << escape::HtmlText(node.name)
        << "<small>" << escape::HtmlText(label) << "</small></a>\n";
  }
  out << "</div>\n";
}

void WriteFilters(std::ostream& out, Language lang, const std::vector<Finding>& findings) {
  std::set<std::string> checks;
  for (const auto& f : findings) checks.insert(f.check);
  out << "<div class=\"filters\"><label>" << Say(lang, "html.filter.check")
      << " <select id=\"f-check\"><option value=\"\">" << Say(lang, "html.filter.all")
      << "</option>";
  for (const auto& c : checks) {
    std::string title = CheckTitle(c, lang);
    out << "<option value=\"" << escape::HtmlText(c) << "\">" << escape::HtmlText(c == title ? c : c + " — " + title)
        << "</option>";
  }
  out << "</select></label><label>" << Say(lang, "html.filter.severity")
      << " <select id=\"f-severity\">";
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError, Severity::kCritical}) {
    out << "<option value=\"" << escape::HtmlText(SeverityName(s)) << "\">" << escape::HtmlText(SeverityText(s, lang))
        << "</option>";
  }
  out << "</select></label><span>" << Say(lang, "html.filter.shown")
      << "<span id=\"shown\">" << findings.size() << "</span></span></div>\n";
}

void WriteFindingRow(std::ostream& out, Language lang, const Finding& f, const std::string& node_key) {
  const std::string severity(SeverityName(f.severity));
  out << "<tr class=\"finding sev-" << escape::HtmlText(severity) << "\" data-check=\"" << escape::HtmlText(f.check)
      << "\" data-severity=\"" << escape::HtmlText(severity) << "\" data-node=\"" << node_key << "\">"
      << "<td class=\"sev\">" << escape::HtmlText(SeverityText(f.severity, lang)) << "</td>"
      << "<td><code>" << escape::HtmlText(f.check) << "</code><br>" << escape::HtmlText(CheckTitle(f.check, lang))
      << "</td><td class=\"where\">" << escape::HtmlText(Where(f)) << "</td><td>"
      << escape::HtmlText(FindingMessage(f, lang)) << "</td>"
      << "<td>" << escape::HtmlText(i18n::RenderOr(lang, f.expected_text, f.expected)) << "</td><td>"
      << escape::HtmlText(i18n::RenderOr(lang, f.found_text, f.found)) << "</td>"
      << "<td><code>" << escape::HtmlText(i18n::RenderOr(lang, f.fix_text, f.fix)) << "</code></td></tr>\n";
}

void WriteFindings(std::ostream& out, Language lang, const std::vector<NodeGroup>& groups) {
  out << "<table id=\"findings\"><thead><tr>";
  for (const std::string& h :
       {Say(lang, "html.column.severity"), Say(lang, "html.column.check"),
        Say(lang, "html.column.where"), Say(lang, "html.column.finding"),
        Say(lang, "html.column.expected"), Say(lang, "html.column.found"),
        Say(lang, "html.column.fix")}) {
    out << "<th>" << h << "</th>";
  }
  out << "</tr></thead>\n";
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const NodeGroup& group = groups[i];
    if (group.findings.empty()) continue;
    const std::string key = std::to_string(i);
    out << "<tbody id=\"n" << key << "\"><tr class=\"node-head\" data-node=\"" << key
        << "\"><th colspan=\"7\">"
        << (group.name.empty() ? Say(lang, "html.cluster") : escape::HtmlText(group.name)) << "</th></tr>\n";
    for (const Finding* f : group.findings) WriteFindingRow(out, lang, *f, key);
    out << "</tbody>\n";
  }
  out << "</table>\n";
}

}  // namespace

void WriteHtmlReport(std::ostream& out, const CheckRun& run, Language lang) {
  // One group per plan node (same index as the grid), then one for findings of no planned node.
  std::vector<NodeGroup> groups;
  std::map<std::string, std::size_t> index;
  for (const auto& node : run.plan->nodes) {
    index.emplace(node.name, groups.size());
    groups.push_back({node.name, {}});
  }
  groups.push_back({"", {}});
  for (const auto& f : run.findings) {
    auto it = index.find(f.node);
    groups[it == index.end() ? groups.size() - 1 : it->second].findings.push_back(&f);
  }
  std::size_t passed = 0, failed = 0, unreachable = 0;
  for (const auto& node : run.plan->nodes) {
    switch (StateOf(run, node)) {
      case NodeState::kPassed: ++passed; break;
      case NodeState::kFailed: ++failed; break;
      case NodeState::kUnreachable: ++unreachable; break;
    }
  }
  const std::string title = i18n::Render(lang, "html.title");
  out << "<!DOCTYPE html>\n<html lang=\"" << (lang == Language::kChinese ? "zh-CN" : "en")
      << "\">\n"
      << "<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      << CspSha256Source(kStyle) << "; script-src " << CspSha256Source(kScript) << "\">\n"
      << "<meta name=\"generator\" content=\"roce-lint " << escape::HtmlText(kVersion) << "\">\n"
      << "<title>" << escape::HtmlText(title) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n"
      << "<h1>" << escape::HtmlText(title) << "</h1>\n<p class=\"summary\">"
      << Say(lang, "html.metrics", {{"input", InputText(run, lang)}}) << "<br>"
      << Say(lang, "html.summary",
             {{"nodes", std::to_string(run.plan->nodes.size())},
              {"passed", std::to_string(passed)},
              {"failed", std::to_string(failed)},
              {"unreachable", std::to_string(unreachable)},
              {"findings", std::to_string(run.findings.size())}});
  if (auto note = CountersUnobservedNote(run, lang); !note.empty()) out << "<br>" << escape::HtmlText(note);
  if (auto note = SwitchSideUncheckedNote(run, lang); !note.empty()) out << "<br>" << escape::HtmlText(note);
  if (auto note = SwitchCountersUncheckedNote(run, lang); !note.empty()) out << "<br>" << escape::HtmlText(note);
  if (!run.counters_checked) out << "<br>" << Say(lang, "html.no_counter_window");
  out << "</p>\n";
  WriteGrid(out, run, lang, groups);
  WriteFilters(out, lang, run.findings);
  WriteFindings(out, lang, groups);
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace rocewatch::lint::report
