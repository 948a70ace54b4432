#pragma once

// The English messages of roce-lint's reports: the reference table. Every other language's table
// (zh.h) lists the same IDs in the same order with the same {placeholders}; catalogue.cpp checks
// it when it compiles, so a message missing from a translation fails the build. Commands, flags,
// check IDs, metric names and values are placeholders or stay as written in every language.

#include "lint/i18n/message.h"

namespace rocewatch::lint::i18n {

inline constexpr Message kEnglishMessages[] = {
    // Severities and their counts ("2 errors, 1 warning").
    {"severity.critical", "critical"},
    {"severity.error", "error"},
    {"severity.warning", "warning"},
    {"severity.info", "info"},
    {"count.critical", "{n} critical"},
    {"count.error.one", "{n} error"},
    {"count.error.many", "{n} errors"},
    {"count.warning.one", "{n} warning"},
    {"count.warning.many", "{n} warnings"},
    {"count.info", "{n} info"},
    {"count.none", "no findings"},
    {"list.separator", ", "},
    {"list.more", "{names} and {more} more"},
    {"sentence.end", "{text}."},

    // roce-lint check: the text report (lint/report/node_report.cpp).
    {"report.input.scrapes", "scrapes of {count} exporters"},
    {"report.input.counters_since", "{dir} (counters since {previous})"},
    {"report.node.passed", "passed ({nics} NICs)"},
    {"report.node.unreachable", "UNREACHABLE"},
    {"report.node.failed", "FAILED"},
    {"report.details", "Details:"},
    {"report.finding", "{where}: {severity}: {message} [{check}]"},
    {"report.finding.nowhere", "{severity}: {message} [{check}]"},
    {"report.expected_found", "expected: {expected}; found: {found}"},
    {"report.fix", "fix: {fix}"},
    {"report.summary",
     "{nodes} nodes, {nics} NICs: {passed} passed, {failed} failed, {unreachable} unreachable; "
     "{counts}"},
    {"report.counters_unobserved.one",
     "Counter checks skipped on {count} node not observed at the counter window's start (it "
     "joined inside the window): {names}."},
    {"report.counters_unobserved.many",
     "Counter checks skipped on {count} nodes not observed at the counter window's start (they "
     "joined inside the window): {names}."},
    {"report.switch_side_unchecked.one",
     "Switch-side checks ({checks}) could not run on {count} NIC whose switch port sends no DCBX "
     "and no --switch-config names: {names}."},
    {"report.switch_side_unchecked.many",
     "Switch-side checks ({checks}) could not run on {count} NICs whose switch ports send no "
     "DCBX and no --switch-config names: {names}."},
    {"report.no_counter_window",
     "Counter checks skipped: no observation window (use --counter-window, "
     "--previous-metrics-dir, or --prometheus)."},

    // roce-lint check --format html (lint/report/html_report.cpp).
    {"html.title", "roce-lint check"},
    {"html.metrics", "Metrics: {input}"},
    {"html.summary",
     "{nodes} nodes: {passed} passed, {failed} failed, {unreachable} unreachable; {findings} "
     "findings"},
    {"html.no_counter_window", "Counter checks skipped: no observation window."},
    {"html.passed", "passed"},
    {"html.unreachable", "unreachable"},
    {"html.filter.check", "Check"},
    {"html.filter.all", "all"},
    {"html.filter.severity", "Severity at least"},
    {"html.filter.shown", "shown: "},
    {"html.column.severity", "Severity"},
    {"html.column.check", "Check"},
    {"html.column.where", "Where"},
    {"html.column.finding", "Finding"},
    {"html.column.expected", "Expected"},
    {"html.column.found", "Found"},
    {"html.column.fix", "Fix"},
    {"html.cluster", "cluster"},

    // roce-lint plan: the summary line after the findings (lint/cli/plan_command.cpp).
    {"plan.summary", "{path}: {counts} ({nodes}, {nics}, {profiles})"},
    {"plan.nodes.one", "{n} node"},
    {"plan.nodes.many", "{n} nodes"},
    {"plan.nics.one", "{n} NIC"},
    {"plan.nics.many", "{n} NICs"},
    {"plan.profiles.one", "{n} profile"},
    {"plan.profiles.many", "{n} profiles"},

    // roce-lint verify: the text report (lint/verify/text_report.cpp).
    {"verify.column.pair", "PAIR (client -> server)"},
    {"verify.column.round", "ROUND"},
    {"verify.column.result", "RESULT"},
    {"verify.column.bandwidth", "BW Gb/s"},
    {"verify.column.paused", "PAUSED"},
    {"verify.column.retransmissions", "RETX/s"},
    {"verify.column.discards", "DISCARDS"},
    {"verify.column.why", "WHY"},
    {"verify.status.pass", "PASS"},
    {"verify.status.fail", "FAIL"},
    {"verify.status.error", "ERROR"},
    {"verify.status.unreachable", "UNREACHABLE"},
    {"verify.summary",
     "{pairs} pairs: {pass} PASS, {fail} FAIL, {error} ERROR, {unreachable} UNREACHABLE ({tool}, "
     "{seconds} s)"},
    {"verify.failed_heading", "What failed:"},
    {"verify.verdict_detail", "counter: {counter}  expected: {expected}  found: {found}"},
    {"verify.unpaired_heading", "Not tested:"},

    // roce-lint verify: the verdicts and errors of a pair (lint/verify/judge.cpp).
    {"verify.counters.expected", "scraped before and after the test"},
    {"verify.counters.unread",
     "{nic}: its counters could not be read, so the test proves nothing about them: {error}"},
    {"verify.pause_non_pfc.expected", "0 (priority {priority} has no PFC in the plan)"},
    {"verify.pause_non_pfc.received",
     "{nic} received {frames} pause frames on priority {priority}, which has no PFC in the plan "
     "({rate}/s)"},
    {"verify.pause_non_pfc.sent",
     "{nic} sent {frames} pause frames on priority {priority}, which has no PFC in the plan "
     "({rate}/s)"},
    {"verify.pause_duration.expected", "<= {limit} of the test"},
    {"verify.pause_duration.within",
     "{nic} {direction} priority {priority} paused {share} of the {seconds} s test"},
    {"verify.pause_duration.over",
     "{nic} {direction} priority {priority} paused {share} of the {seconds} s test, {times}x the "
     "limit of {limit}"},
    {"verify.retransmissions.none", "{nic}: no retransmissions or sequence errors"},
    {"verify.retransmissions.within", "{nic}: {which} in {seconds} s ({rate}/s)"},
    {"verify.retransmissions.over", "{nic}: {which} in {seconds} s ({rate}/s, limit {limit}/s)"},
    {"verify.discards.within", "{nic} discarded {count} packets during the test"},
    {"verify.discards.over",
     "{nic} discarded {count} packets during the test ({rate}/s; limit {limit})"},
    {"verify.link.expected", "0 and the port ACTIVE"},
    {"verify.link.found_not_active", "port not ACTIVE during the test"},
    {"verify.link.stable", "{nic}: link stable"},
    {"verify.link.not_active", "{nic}: the port was not ACTIVE during the test"},
    {"verify.link.flapped", "{nic} went down {count} times during the test"},
    {"verify.bandwidth.expected", ">= {need} Gb/s ({fraction} of {line})"},
    {"verify.bandwidth.within",
     "{pair}: {gbps} Gb/s average, {share} of the {line} Gb/s line rate"},
    {"verify.bandwidth.short",
     "{pair}: {gbps} Gb/s average, {share} of the {line} Gb/s line rate, {short} Gb/s short of "
     "{target}"},
    {"verify.bandwidth.unjudged_expected", "link_speed_gbps in the profile"},
    {"verify.bandwidth.unjudged", "{pair}: {gbps} Gb/s; not judged: the profile has no link_speed_gbps"},
    {"verify.latency.within", "{pair}: {us} us"},
    {"verify.latency.over", "{pair}: {us} us, {above} us above the bound of {bound} us"},
    {"verify.detail.no_output", "no client output"},
    {"verify.detail.unreadable", "client {client}: cannot read perftest's output: {error}"},
    {"verify.detail.perftest", "client {client}: perftest: {error}"},
    {"verify.detail.no_bandwidth", "client {client}: perftest printed no bandwidth result"},
    {"verify.detail.no_latency", "client {client}: perftest printed no latency result"},

    // roce-lint apply: the result table (lint/fix/batch.cpp).
    {"apply.column.node", "NODE"},
    {"apply.column.host", "HOST"},
    {"apply.column.result", "RESULT"},
    {"apply.result.passed", "passed"},
    {"apply.result.changed.one", "changed {n} setting"},
    {"apply.result.changed.many", "changed {n} settings"},
    {"apply.result.would_change.one", "dry run: would change {n} setting"},
    {"apply.result.would_change.many", "dry run: would change {n} settings"},
    {"apply.result.precheck_passed", "precheck passed"},
    {"apply.result.no_script", "no script ({detail})"},
    {"apply.result.skipped", "skipped: {detail}"},
    {"apply.result.failed", "failed: {detail}"},
    {"apply.result.unreachable", "unreachable: {detail}"},
    {"apply.result.restored_nothing", "rolled back: nothing to restore"},
    {"apply.result.restored.one", "rolled back {n} setting"},
    {"apply.result.restored.many", "rolled back {n} settings"},
    {"apply.result.no_backup", "no backup"},
    {"apply.result.would_restore.one", "rollback dry run: would restore {n} setting"},
    {"apply.result.would_restore.many", "rollback dry run: would restore {n} settings"},
    {"apply.summary.one", "{n} node: {counts}"},
    {"apply.summary.many", "{n} nodes: {counts}"},
    {"apply.count.changed", "{n} changed"},
    {"apply.count.passed", "{n} passed"},
    {"apply.count.would_change", "{n} would change"},
    {"apply.count.precheck_passed", "{n} precheck passed"},
    {"apply.count.no_script", "{n} no script"},
    {"apply.count.restored", "{n} rolled back"},
    {"apply.count.no_backup", "{n} no backup"},
    {"apply.count.would_restore", "{n} would restore"},
    {"apply.count.skipped", "{n} skipped"},
    {"apply.count.failed", "{n} failed"},
    {"apply.count.unreachable", "{n} unreachable"},
};

}  // namespace rocewatch::lint::i18n
