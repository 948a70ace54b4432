#pragma once

// Every node check's findings in Chinese (`roce-lint check --lang zh`): each run of the check
// tests' Cluster (check_test_util.h) and of the peer tests' runners passes its findings here, so
// every check a test makes fire is also rendered in zh as text, HTML and JSON, and a test fails
// on any run of English words (english_runs.h) outside values, identifiers and commands.
//
// A finding's sentence, and its expected, found and fix texts when they have words, come from
// the message catalogue (lint/i18n/): its StoredMessage has an ID. A text without one is a value
// (a number, a name, a list of names: no English run) or, for the fix, a command line. Argument
// values are names and numbers too, except what a node or a file said in its own words (the
// arguments in kOutsideWords, removed before looking).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "english_runs.h"
#include "lint/core/finding.h"
#include "lint/i18n/catalogue.h"
#include "lint/plan/model.h"
#include "lint/report/json_report.h"
#include "lint/report/node_report.h"

namespace rocewatch::lint::testing {

// Arguments whose value is what a node or a file said, as it said it (an exporter's error).
inline const std::set<std::string, std::less<>> kOutsideWords = {"error"};

// Words that are values: ethtool's FEC encodings ("auto baser": link.fec-mode's configured modes).
inline const std::set<std::string> kValueWords = {"auto", "off", "rs", "baser", "llrs"};

// A fix with no catalogue form is a command line: each of its "; " parts starts with a command.
inline bool IsCommandLine(std::string_view fix) {
  static const std::set<std::string, std::less<>> kCommands = {
      "ip", "dcb", "mlnx_qos", "ethtool", "echo", "cma_roce_mode", "sysctl", "mlxconfig", "mlxreg",
      "devlink", "rdma", "printf", "tee", "lldptool", "lldpcli", "nv", "config", "sudo", "modprobe", "mkdir"};
  std::size_t at = 0;
  while (at <= fix.size()) {
    std::size_t end = fix.find("; ", at);
    std::string_view part = fix.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    std::string_view first = part.substr(0, part.find(' '));
    if (!kCommands.count(first)) return false;
    if (end == std::string_view::npos) break;
    at = end + 2;
  }
  return true;
}

// `text` with every occurrence of each of `values` replaced by "·" (not a word: a run stops there).
inline std::string WithoutValues(std::string text, std::vector<std::string> values) {
  std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& v : values) {
    if (v.empty()) continue;
    for (std::size_t at = text.find(v); at != std::string::npos; at = text.find(v, at)) text.replace(at, v.size(), "·");
  }
  return text;
}

// The visible text of an HTML page: no script, style or tags; entities decoded.
inline std::string VisibleText(std::string html) {
  for (std::string_view tag : {"script", "style"}) {
    const std::string open = "<" + std::string(tag), close = "</" + std::string(tag) + ">";
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at)) {
      std::size_t end = html.find(close, at);
      html.erase(at, end == std::string::npos ? std::string::npos : end + close.size() - at);
    }
  }
  std::string out;
  bool in_tag = false;
  for (char ch : html) {
    if (ch == '<') in_tag = true;
    if (!in_tag) out += ch;
    if (ch == '>') {
      in_tag = false;
      out += '\n';
    }
  }
  for (auto [entity, ch] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}})
    for (std::size_t at = out.find(entity); at != std::string::npos; at = out.find(entity, at + 1))
      out.replace(at, std::string_view(entity).size(), ch);
  return out;
}

// What stays as it is in every language in a report of `findings`: names of what each is about,
// check IDs, the outside words of the arguments and the command-line fixes.
inline std::vector<std::string> ValuesOf(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    for (const std::string* s : {&f.node, &f.device, &f.netdev, &f.port, &f.check}) out.push_back(*s);
    if (f.fix_text.id.empty()) out.push_back(f.fix);
    for (const i18n::StoredMessage* m : {&f.message_text, &f.expected_text, &f.found_text, &f.fix_text})
      for (const auto& [name, value] : m->args)
        if (kOutsideWords.count(name)) out.push_back(value);
  }
  return out;
}

// The English runs of one finding's texts in Chinese, each named by its field; empty when none.
inline std::vector<std::string> EnglishInFinding(const Finding& f) {
  std::vector<std::string> out;
  const std::vector<std::string> values = ValuesOf({f});
  struct Field {
    const char* name;
    const std::string* english;
    const i18n::StoredMessage* message;
  };
  for (const Field& field : {Field{"message", &f.message, &f.message_text}, Field{"expected", &f.expected, &f.expected_text},
                             Field{"found", &f.found, &f.found_text}, Field{"fix", &f.fix, &f.fix_text}}) {
    if (field.english->empty()) continue;
    if (field.message->id.empty()) {
      // A value as it is: the sentence must have a catalogue form, a fix may be a command line,
      // and what a node said (the found of inventory.exporter-unreachable) stays as it said it.
      if (std::string_view(field.name) != "fix" &&
          std::find(values.begin(), values.end(), *field.english) != values.end())
        continue;
      if (std::string_view(field.name) == "message")
        out.push_back("message: not in the catalogue: " + *field.english);
      else if (std::string_view(field.name) == "fix" ? !IsCommandLine(*field.english)
                                                     : !rocewatch::testing::EnglishRuns(*field.english, kValueWords).empty())
        out.push_back(std::string(field.name) + ": English text without a catalogue form: " + *field.english);
      continue;
    }
    // Every argument is a value with no English run, or has a form per language ("found:zh").
    for (const auto& [name, value] : field.message->args) {
      if (name.find(':') != std::string::npos || kOutsideWords.count(name)) continue;
      const std::string translation = name + ":";  // a lambda cannot capture a structured binding (clang 14)
      const bool translated = std::any_of(field.message->args.begin(), field.message->args.end(),
                                          [&](const auto& a) { return a.first.rfind(translation, 0) == 0; });
      // A command the fix carries (fix::RenderFixes: {command}, or a part of "fix.concat") is a value.
      if (!translated && !IsCommandLine(value) && !rocewatch::testing::EnglishRuns(value, kValueWords).empty())
        out.push_back(std::string(field.name) + ": argument " + name + " of " + field.message->id + " is English: " + value);
    }
    const std::string zh = i18n::RenderOr(i18n::Language::kChinese, *field.message, *field.english);
    for (const auto& run : rocewatch::testing::EnglishRuns(WithoutValues(zh, values), kValueWords))
      out.push_back(std::string(field.name) + ": \"" + run + "\" in " + zh);
  }
  return out;
}

// `findings` (of `plan`) in zh: each finding's texts, and the text, HTML and JSON reports, have
// no English run outside values. Adds a test failure naming the check and the words otherwise.
inline void ExpectChinese(const std::vector<Finding>& findings, const plan::Plan& plan) {
  using rocewatch::testing::EnglishRuns;
  for (const auto& f : findings) {
    auto english = EnglishInFinding(f);
    EXPECT_THAT(english, ::testing::ElementsAre()) << f.check << " on " << f.node << " " << f.netdev;
    // The English is what the catalogue's English form renders: the English reports as they were.
    for (auto [message, text] : {std::pair{&f.message_text, &f.message}, {&f.expected_text, &f.expected},
                                 {&f.found_text, &f.found}, {&f.fix_text, &f.fix}})
      EXPECT_EQ(i18n::RenderOr(i18n::Language::kEnglish, *message, *text), *text) << f.check;
  }
  if (findings.empty()) return;
  const std::vector<std::string> values = ValuesOf(findings);
  report::CheckRun run;
  run.plan = &plan;
  run.findings = findings;
  run.input = "scrapes of 1 exporters";
  run.input_id = "report.input.scrapes";
  run.input_args = {{"count", "1"}};
  std::ostringstream text, html;
  report::WriteNodeReport(text, run, i18n::Language::kChinese);
  std::vector<std::string> names;  // the plan's node names are in the node lines
  for (const auto& node : plan.nodes) names.push_back(node.name);
  std::vector<std::string> all = values;
  all.insert(all.end(), names.begin(), names.end());
  EXPECT_THAT(EnglishRuns(WithoutValues(text.str(), all), kValueWords), ::testing::ElementsAre()) << "text report:\n" << text.str();
  report::WriteHtmlReport(html, run, i18n::Language::kChinese);
  EXPECT_THAT(EnglishRuns(WithoutValues(VisibleText(html.str()), all), kValueWords), ::testing::ElementsAre())
      << "HTML report:\n" << VisibleText(html.str());
  auto json = report::JsonReport(findings, {"check", "metrics", Severity::kWarning, i18n::Language::kChinese});
  for (const auto& jf : json["findings"])
    for (const char* field : {"message_zh", "expected_zh", "found_zh", "fix_zh"})
      EXPECT_THAT(EnglishRuns(WithoutValues(jf[field].get<std::string>(), values), kValueWords), ::testing::ElementsAre())
          << jf["check"].get<std::string>() << " " << field << ": " << jf[field].get<std::string>();
}

}  // namespace rocewatch::lint::testing
