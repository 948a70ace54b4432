// oci/bundle_pod.h on the pod annotations users posted (tests/fixtures/real/oci-bundles) and on
// hostile ones.

#include "exporter/oci/bundle_pod.h"
#include "rocewatch/read_file.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>


namespace rocewatch::oci {
namespace {

std::string Posted(const std::string& name) {
  auto text = ReadFileCapped(std::string(ROCEWATCH_SOURCE_DIR) + "/tests/fixtures/real/oci-bundles/" + name, 1 << 16);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

// The annotations object of a posted excerpt (PROVENANCE.md): from the line that opens it to the
// first line that closes it at its indent, "..." lines (a poster's elisions) left out, wrapped as
// a config.json's member.
std::string ConfigJson(const std::string& posted) {
  std::istringstream in(posted);
  std::string line, body, indent;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      const auto at = line.find('{');
      if (at == std::string::npos || line.find('$') != std::string::npos || line.find("cat ") != std::string::npos)
        continue;
      inside = true;
      indent = line.substr(0, line.find_first_not_of(' '));
      body += "{\n";
      continue;
    }
    if (line.find_first_not_of(' ') != std::string::npos && line.substr(line.find_first_not_of(' ')) == "...")
      continue;
    if (line.rfind(indent + "}", 0) == 0) {
      body += "}";
      break;
    }
    body += line + "\n";
  }
  return "{\"ociVersion\": \"1.0.2-dev\", \"annotations\": " + body + "}";
}

TEST(BundlePod, ContainerdNamesThePodItsUidNames) {
  auto pod = DecodeBundlePod(ConfigJson(Posted("containerd-1.6-pr7735.txt")), "4fe556a4-0bd7-45be-966f-46e2cbf4c4ac");
  ASSERT_TRUE(pod.ok()) << pod.error().message;
  EXPECT_EQ(*pod, (PodName{"default", "test-pod-9240"}));
  // The same file found through another pod's cgroup names no pod.
  auto other = DecodeBundlePod(ConfigJson(Posted("containerd-1.6-pr7735.txt")), "01b4b887-7635-4346-9c20-58a294bbb034");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("the cgroup names pod"), std::string::npos) << other.error().message;
}

TEST(BundlePod, CrioNamesThePod) {
  auto pod = DecodeBundlePod(ConfigJson(Posted("crio-blog-2023.txt")), "5b5e07db-f1b9-4530-81ef-b7d04d66b83e");
  ASSERT_TRUE(pod.ok()) << pod.error().message;
  EXPECT_EQ(*pod, (PodName{"kube-system", "coredns-6d4b75cb6d-4mtdm"}));
}

TEST(BundlePod, WhatNamesNoPodSaysWhy) {
  // Edited by hand for a blog post: not JSON.
  auto edited = DecodeBundlePod(ConfigJson(Posted("containerd-blog-2023-hand-edited.txt")), "01b4b887-7635-4346-9c20-58a294bbb034");
  ASSERT_FALSE(edited.ok());
  EXPECT_EQ(edited.error().message, "not a JSON object");
  // containerd 1.2.6 wrote no pod name.
  auto old = DecodeBundlePod(ConfigJson(Posted("containerd-1.2.6-sandbox-kata2564.txt")), "2ce73eae-eb52-45df-a0d2-da44c73c4926");
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.error().message.find("no pod annotations"), std::string::npos) << old.error().message;
}

TEST(BundlePod, ContainerdBeforeTheUidAnnotationStillNamesThePod) {
  auto pod = DecodeBundlePod(R"({"annotations": {"io.kubernetes.cri.sandbox-name": "trainer-0",
                                  "io.kubernetes.cri.sandbox-namespace": "ml"}})",
                             "4fe556a4-0bd7-45be-966f-46e2cbf4c4ac");
  ASSERT_TRUE(pod.ok()) << pod.error().message;
  EXPECT_EQ(*pod, (PodName{"ml", "trainer-0"}));
}

TEST(BundlePod, HostileAnnotationsAreRefusedNamingWhatWasWrong) {
  const std::string uid = "4fe556a4-0bd7-45be-966f-46e2cbf4c4ac";
  auto with = [&](const std::string& ns, const std::string& name) {
    return DecodeBundlePod("{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": \"" + ns +
                               "\", \"io.kubernetes.cri.sandbox-name\": \"" + name +
                               "\", \"io.kubernetes.cri.sandbox-uid\": \"" + uid + "\"}}",
                           uid);
  };
  EXPECT_TRUE(with("default", "a.b-c").ok());
  for (const auto& [ns, name] : std::vector<std::pair<std::string, std::string>>{
           {"default", "x\\u202e\\u001b[2J"},  // bidi override and a terminal escape
           {"default", "Upper"},
           {"default", "-lead"},
           {"default", "a..b"},
           {"default", ""},
           {"de fault", "p"},
           {std::string(64, 'a'), "p"},
           {"default", std::string(254, 'a')},
           {"default", "p\\n"}}) {
    auto r = with(ns, name);
    EXPECT_FALSE(r.ok()) << ns << " " << name;
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find("is not a Kubernetes"), std::string::npos) << r.error().message;
    }
  }
  // A repeated key is refused, not last-wins.
  auto dup = DecodeBundlePod("{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": \"a\", "
                             "\"io.kubernetes.cri.sandbox-namespace\": \"b\", \"io.kubernetes.cri.sandbox-name\": \"p\"}}",
                             uid);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("appears twice"), std::string::npos) << dup.error().message;
  // Types, nesting and size.
  EXPECT_FALSE(DecodeBundlePod("{\"annotations\": {\"io.kubernetes.cri.sandbox-namespace\": 1, "
                               "\"io.kubernetes.cri.sandbox-name\": \"p\"}}", uid).ok());
  EXPECT_FALSE(DecodeBundlePod("{\"annotations\": []}", uid).ok());
  EXPECT_FALSE(DecodeBundlePod("[]", uid).ok());
  EXPECT_FALSE(DecodeBundlePod(std::string(100000, '[') + std::string(100000, ']'), uid).ok());
  EXPECT_FALSE(DecodeBundlePod(std::string(kMaxBundleConfigBytes + 1, ' '), uid).ok());
  EXPECT_FALSE(DecodeBundlePod(std::string("{\"annotations\": {\"io.kubernetes.pod.name\": \"p\xff\"}}"), uid).ok());
}

TEST(BundlePod, PathsOnlyForARuntimesContainerId) {
  const std::string id(64, 'a');
  EXPECT_EQ(BundleConfigPaths("containerd", id),
            std::vector<std::string>{"run/containerd/io.containerd.runtime.v2.task/k8s.io/" + id + "/config.json"});
  EXPECT_EQ(BundleConfigPaths("crio", id).size(), 2u);
  EXPECT_EQ(BundleConfigPaths("", id).size(), 3u);
  EXPECT_TRUE(BundleConfigPaths("docker", id).empty());
  EXPECT_TRUE(BundleConfigPaths("containerd", "../../etc/passwd").empty());
  EXPECT_TRUE(BundleConfigPaths("containerd", std::string(64, 'A')).empty());
  EXPECT_TRUE(BundleConfigPaths("containerd", std::string(63, 'a')).empty());
}

}  // namespace
}  // namespace rocewatch::oci
