#pragma once

// The renderers of the dcb, ecn and optics collectors, whose files still live
// in metrics/ (every other collector declares its renderer in
// collectors/<name>/collector.h). A renderer walks its section of the
// NodeSnapshot and adds samples for the MetricSpecs declared in its own file;
// it also lists its specs so the catalogue test and --help read the same table.

#include "metrics/metric_sink.h"
#include "metrics/spec.h"
#include "model/snapshot.h"

namespace rocewatch::metrics {

void RenderEcn(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EcnSpecs();

void RenderDcb(const NodeSnapshot& snap, MetricSink& out);
const SpecList& DcbSpecs();

void RenderOptics(const NodeSnapshot& snap, MetricSink& out);
const SpecList& OpticsSpecs();

}  // namespace rocewatch::metrics
