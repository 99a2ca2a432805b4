#pragma once
// A bounded queue of deliveries to another server, sent from a thread of its own at nice 10 (the tables come
// first): push() only queues, so no network thread, room or worker ever waits for the other server. The mailer
// (mail/mailer) and the push sender (push/push_sender) each have one. `deliver` says what became of the item at the
// head: sent; to be tried again (it stays at the head, tried after a pause that doubles up to `max_retry`, dropped
// after `max_tries` when that is set); or refused for good (dropped and logged). Memory only: a restart loses what
// was queued.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/worker_pool.hpp"

namespace emporium::server {

enum class Delivery { sent, try_again, refused };

// What a queue did since the start, and what waits.
struct DeliveryCounts {
  long long queued = 0, sent = 0, retries = 0, refused = 0, dropped = 0;
  std::size_t waiting = 0;

  // For /metrics (Prometheus text): emporium_<many>_queued_total … and the gauge emporium_<one>_queue, e.g. ("mail",
  // "mails"): an operator sees what waits, is tried again or refused.
  std::string metrics(const std::string& one, const std::string& many) const {
    std::string out;
    auto line = [&](const std::string& name, const char* type, const std::string& help, long long value) {
      out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + name + " " +
             std::to_string(value) + "\n";
    };
    const std::string total = "emporium_" + many + "_";
    line(total + "queued_total", "counter", "Queued to be sent (" + many + ").", queued);
    line(total + "sent_total", "counter", "Taken by the server they go to (" + many + ").", sent);
    line("emporium_" + one + "_retries_total", "counter", "Tries that failed for a while, tried again (" + many + ").",
         retries);
    line(total + "refused_total", "counter", "Refused for good by the server they go to (" + many + ").", refused);
    line(total + "dropped_total", "counter", "Not sent: the queue was full, or too many tries failed (" + many + ").",
         dropped);
    line("emporium_" + one + "_queue", "gauge", "Waiting to be sent (" + many + ").", static_cast<long long>(waiting));
    return out;
  }
};

struct DeliveryQueueSettings {
  std::size_t capacity = 10000;  // items waiting at most: beyond it a new one is dropped (and counted)
  std::chrono::milliseconds first_retry{1000};
  std::chrono::milliseconds max_retry{30000};
  int max_tries = 0;  // 0: an item waiting to be tried again is kept until it goes (or the queue stops)
};

template <class Item>
class DeliveryQueue {
 public:
  // Runs on the queue's thread; `error` says why it did not go.
  using Deliver = std::function<Delivery(const Item& item, std::string& error)>;
  using Counts = DeliveryCounts;

  // `what` names the items in the log ("mail", "push").
  DeliveryQueue(std::string what, DeliveryQueueSettings settings, Deliver deliver)
      : what_(std::move(what)), settings_(settings), deliver_(std::move(deliver)), thread_([this] { run(); }) {}
  ~DeliveryQueue() {  // the item being delivered finishes (or times out), the queued ones are dropped
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  DeliveryQueue(const DeliveryQueue&) = delete;
  DeliveryQueue& operator=(const DeliveryQueue&) = delete;

  // False when the queue is full (then the item is counted as dropped). Thread-safe.
  bool push(Item item) {
    {
      std::lock_guard lock(mutex_);
      if (queue_.size() >= settings_.capacity) {
        ++counts_.dropped;
        spdlog::warn("{}: the queue is full ({} waiting): one is dropped", what_, queue_.size());
        return false;
      }
      queue_.push_back(std::move(item));
      ++counts_.queued;
    }
    wake_.notify_one();
    return true;
  }

  Counts counts() const {
    std::lock_guard lock(mutex_);
    auto c = counts_;
    c.waiting = queue_.size();
    return c;
  }

 private:
  void run() {
    lower_thread_priority(10);
    auto pause = settings_.first_retry;
    int tries = 0;
    std::unique_lock lock(mutex_);
    while (true) {
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      // The item stays at the head while it is tried: push() may go on queueing meanwhile.
      const Item& item = queue_.front();
      lock.unlock();
      std::string error;
      const auto outcome = deliver_(item, error);
      lock.lock();
      if (outcome == Delivery::try_again && (settings_.max_tries == 0 || ++tries < settings_.max_tries)) {
        ++counts_.retries;
        spdlog::warn("{}: not taken ({}); trying again in {} ms ({} waiting)", what_, error, pause.count(),
                     queue_.size());
        if (wake_.wait_for(lock, pause, [this] { return stopping_; })) return;
        pause = std::min(pause * 2, settings_.max_retry);
        continue;
      }
      if (outcome == Delivery::sent) {
        ++counts_.sent;
      } else if (outcome == Delivery::try_again) {
        ++counts_.dropped;
        spdlog::warn("{}: not taken after {} tries ({}): dropped", what_, tries, error);
      } else {
        ++counts_.refused;
        spdlog::warn("{}: refused for good ({}): dropped", what_, error);
      }
      pause = settings_.first_retry;
      tries = 0;
      queue_.pop_front();
    }
  }

  const std::string what_;
  const DeliveryQueueSettings settings_;
  const Deliver deliver_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> queue_;
  Counts counts_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once everything above is
};

}  // namespace emporium::server
