#pragma once

// The dcb, ecn and optics collectors, whose source and renderer files still
// live in sources/ and metrics/ (they move to collectors/<name>/ like the
// others). Their sections and descriptors are here; Info() is in
// sources/registry.cpp, the renderers are declared in metrics/renderers.h.

#include <vector>

#include "model/ecn_snapshot.h"
#include "model/kernel_snapshot.h"
#include "model/section.h"

namespace rocewatch {

struct EcnSection {
  std::vector<EcnSnapshot> ecn;
  void Append(EcnSection&& part) { AppendSection(ecn, part.ecn); }
};

struct DcbSection {
  std::vector<DcbSnapshot> dcb;
  void Append(DcbSection&& part) { AppendSection(dcb, part.dcb); }
};

struct OpticsSection {
  std::vector<OpticsSnapshot> optics;
  void Append(OpticsSection&& part) { AppendSection(optics, part.optics); }
};

namespace sources {
struct SourceInfo;
}

namespace collectors {
struct Ecn {
  using Section = EcnSection;
  static sources::SourceInfo Info();
};
struct Dcb {
  using Section = DcbSection;
  static sources::SourceInfo Info();
};
struct Optics {
  using Section = OpticsSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
