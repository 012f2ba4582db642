// Activity records (what the CUPTI collector produces) -> Timeline events, on synthetic records:
// overlapping kernels on two devices, a peer copy as a Transfer, host copies skipped, errors.
#include <gtest/gtest.h>

#include "cluster/cluster.h"
#include "base/error.h"
#include "profile/activity.h"
#include "test_clusters.h"

using namespace gp;

namespace {

ActivityRecord kernel(int device, uint64_t start, uint64_t end, uint32_t corr, std::string name = "k") {
  ActivityRecord r;
  r.kind = ActivityRecord::Kind::Kernel;
  r.device = device;
  r.start = start;
  r.end = end;
  r.correlationId = corr;
  r.name = std::move(name);
  return r;
}

ActivityRecord copy(ActivityRecord::Kind kind, ActivityRecord::CopyKind ck, int device, int src, int dst,
                    uint64_t start, uint64_t end, int64_t bytes, uint32_t corr) {
  ActivityRecord r;
  r.kind = kind;
  r.copyKind = ck;
  r.device = device;
  r.srcDevice = src;
  r.dstDevice = dst;
  r.start = start;
  r.end = end;
  r.bytes = bytes;
  r.correlationId = corr;
  return r;
}

}  // namespace

TEST(ProfileActivity, OverlappingKernelsOnTwoDevicesAreSortedAndRelative) {
  // given out of order; device 1's kernel overlaps device 0's first one
  std::vector<ActivityRecord> rs = {kernel(0, 1'005'000, 1'006'000, 12), kernel(1, 1'002'000, 1'003'500, 11),
                                    kernel(0, 1'001'000, 1'005'000, 10)};
  ActivityTimeline t = toTimeline(rs);
  ASSERT_EQ(t.events.size(), 3u);
  EXPECT_EQ(t.originNs, 1'001'000u);
  EXPECT_EQ(t.skipped, 0);
  EXPECT_NEAR(t.span, 5e-6, 1e-15);
  const TimelineEvent &a = t.events[0], &b = t.events[1], &c = t.events[2];
  EXPECT_EQ(a.kind, TimelineEvent::Kind::Op);
  EXPECT_EQ(a.resource, 0);
  EXPECT_EQ(a.id, 10);  // the correlation id without an external one
  EXPECT_DOUBLE_EQ(a.start, 0.0);
  EXPECT_NEAR(a.end, 4e-6, 1e-15);
  EXPECT_EQ(a.dst, -1);
  EXPECT_EQ(a.bytes, 0);
  EXPECT_EQ(b.resource, 1);
  EXPECT_NEAR(b.start, 1e-6, 1e-15);
  EXPECT_NEAR(b.end, 2.5e-6, 1e-15);
  EXPECT_LT(b.start, a.end);  // they overlap: two devices run at once
  EXPECT_EQ(c.resource, 0);
  EXPECT_NEAR(c.start, 4e-6, 1e-15);
  EXPECT_EQ(t.recordOf, (std::vector<size_t>{2, 1, 0}));
}

TEST(ProfileActivity, PeerCopyBecomesTransferWithDevicesAndBytes) {
  std::vector<ActivityRecord> rs = {
      kernel(0, 100, 200, 1),
      copy(ActivityRecord::Kind::MemcpyPeer, ActivityRecord::CopyKind::PeerToPeer, 0, 0, 1, 250, 1250, 1 << 20, 2),
      kernel(1, 1300, 1400, 3)};
  rs[1].externalId = 77;
  ActivityTimeline t = toTimeline(rs);
  ASSERT_EQ(t.events.size(), 3u);
  const TimelineEvent& x = t.events[1];
  EXPECT_EQ(x.kind, TimelineEvent::Kind::Transfer);
  EXPECT_EQ(x.resource, 0);  // no cluster: the source device
  EXPECT_EQ(x.dst, 1);
  EXPECT_EQ(x.bytes, 1 << 20);
  EXPECT_EQ(x.id, 77);  // the external id wins over the correlation id
  EXPECT_NEAR(x.end - x.start, 1e-6, 1e-15);

  // with a cluster, the transfer sits on the first channel of the route, as the simulator's do
  const Cluster c = gptest::toyCluster(1, 3);
  ActivityTimelineOptions o;
  o.cluster = &c;
  o.deviceOf = [](int32_t ordinal) { return ordinal + 1; };  // CUDA 0,1 are cluster gpu1,gpu2
  ActivityTimeline t2 = toTimeline(rs, o);
  ASSERT_EQ(t2.events.size(), 3u);
  EXPECT_EQ(t2.events[0].resource, 1);
  EXPECT_EQ(t2.events[1].kind, TimelineEvent::Kind::Transfer);
  EXPECT_EQ(t2.events[1].dst, 2);
  EXPECT_EQ(t2.events[1].resource, c.route(1, 2).front());
  EXPECT_EQ(c.channel(t2.events[1].resource).name, "gpu1->sw");
  EXPECT_EQ(t2.events[2].resource, 2);
}

TEST(ProfileActivity, CopiesMemsetsAndHostTransfers) {
  using K = ActivityRecord::Kind;
  using C = ActivityRecord::CopyKind;
  std::vector<ActivityRecord> rs = {
      copy(K::Memcpy, C::HostToDevice, 0, 0, 0, 0, 100, 4096, 1),       // skipped
      copy(K::Memcpy, C::DeviceToDevice, 0, 0, 0, 100, 300, 8192, 2),   // op on gpu0 with bytes
      copy(K::Memcpy, C::DeviceToHost, 1, 1, 1, 300, 400, 4096, 3),     // skipped
      copy(K::Memset, C::Unknown, 1, -1, -1, 400, 450, 1024, 4),        // op on gpu1 with bytes
      copy(K::Memcpy, C::DeviceToDevice, 0, 0, 1, 500, 900, 65536, 5),  // between devices: transfer
  };
  ActivityTimeline t = toTimeline(rs);
  EXPECT_EQ(t.skipped, 2);
  ASSERT_EQ(t.events.size(), 3u);
  EXPECT_EQ(t.events[0].kind, TimelineEvent::Kind::Op);
  EXPECT_EQ(t.events[0].bytes, 8192);
  EXPECT_EQ(t.events[1].resource, 1);
  EXPECT_EQ(t.events[1].bytes, 1024);
  EXPECT_EQ(t.events[2].kind, TimelineEvent::Kind::Transfer);
  EXPECT_EQ(t.events[2].dst, 1);
  EXPECT_EQ(t.events[2].bytes, 65536);
  EXPECT_DOUBLE_EQ(t.events[0].start, 100e-9);  // relative to the host copy that started first
}

TEST(ProfileActivity, BadRecordsAreOneLineErrors) {
  EXPECT_TRUE(toTimeline({}).events.empty());
  std::vector<ActivityRecord> backwards = {kernel(0, 500, 400, 1, "gemm")};
  try {
    toTimeline(backwards);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ends before it starts"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gemm"), std::string::npos) << e.what();
  }
  std::vector<ActivityRecord> negative = {kernel(-2, 1, 2, 1)};
  EXPECT_THROW(toTimeline(negative), Error);
  const Cluster c = gptest::toyCluster(1, 2);
  ActivityTimelineOptions o;
  o.cluster = &c;
  std::vector<ActivityRecord> outside = {kernel(0, 1, 2, 1), kernel(5, 1, 2, 2)};
  try {
    toTimeline(outside, o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("device 5 is not in the cluster"), std::string::npos) << e.what();
  }
}
