#pragma once
// Pushes out to the browsers' push services (docs/push.md): each message encrypted for its subscription (RFC 8291)
// and signed for by the server's VAPID key (RFC 8292), POSTed with libcurl from a bounded queue on a thread of its
// own (common/delivery_queue), as the mailer sends mail. 2xx: delivered; 404 or 410: the subscription is gone and
// deleted from the store; 429, 5xx or no answer: tried again after a pause, a few times; any other answer: dropped.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/delivery_queue.hpp"
#include "push/web_push.hpp"
#include "store/people_store.hpp"

namespace emporium::server {

struct PushSenderSettings {
  std::string contact;  // the VAPID `sub`: mailto:… or https:… (the push services' way to reach the operator)
  DeliveryQueueSettings queue{10000, std::chrono::milliseconds(1000), std::chrono::milliseconds(30000), 5};
  std::chrono::seconds timeout{10};  // one POST at most
  int ttl_s = 86400;                 // how long a push service keeps a push for a browser that is offline
};

// One push: a message for one subscription.
struct PushJob {
  PushSubscriptionRow to;
  std::string message;
};

class PushSender {
 public:
  PushSender(PeopleStore& store, const VapidKey& key, PushSenderSettings settings);
  ~PushSender();  // stops: the push being sent finishes (or times out), the queued ones are dropped
  PushSender(const PushSender&) = delete;
  PushSender& operator=(const PushSender&) = delete;

  // Queues `message` (a JSON text: {"title","body","url"}) for each of `to`. Thread-safe.
  void send(const std::vector<PushSubscriptionRow>& to, const std::string& message);
  using Counts = DeliveryQueue<PushJob>::Counts;
  Counts counts() const { return queue_->counts(); }
  std::string metrics() const { return counts().metrics("push", "pushes"); }  // for /metrics

 private:
  Delivery deliver(void* curl, const PushJob& push, std::string& error);  // curl: a CURL handle

  PeopleStore& store_;
  const VapidKey& key_;
  const PushSenderSettings settings_;
  std::unique_ptr<DeliveryQueue<PushJob>> queue_;  // last
};

}  // namespace emporium::server
