#pragma once

// One renderer per collector: walks its section of the NodeSnapshot and adds
// samples for the MetricSpecs declared in its own file. Each file also lists
// its specs so the catalogue test and --help read the same table.

#include <vector>

#include "metrics/metric_sink.h"
#include "metrics/spec.h"
#include "model/snapshot.h"

namespace rocewatch::metrics {

using SpecList = std::vector<const MetricSpec*>;

void RenderRdma(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaSpecs();

void RenderNetdev(const NodeSnapshot& snap, MetricSink& out);
const SpecList& NetdevSpecs();

void RenderPcie(const NodeSnapshot& snap, MetricSink& out);
const SpecList& PcieSpecs();

void RenderEcn(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EcnSpecs();

void RenderRdmaCm(const NodeSnapshot& snap, MetricSink& out);
const SpecList& RdmaCmSpecs();

void RenderEthtool(const NodeSnapshot& snap, MetricSink& out);
const SpecList& EthtoolSpecs();

void RenderDcb(const NodeSnapshot& snap, MetricSink& out);
const SpecList& DcbSpecs();

void RenderLinkState(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LinkStateSpecs();

void RenderVerbs(const NodeSnapshot& snap, MetricSink& out);
const SpecList& VerbsSpecs();

void RenderOptics(const NodeSnapshot& snap, MetricSink& out);
const SpecList& OpticsSpecs();

void RenderLldp(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LldpSpecs();

}  // namespace rocewatch::metrics
