#pragma once
// libcurl for the delivery queues (mail/mailer, push/push_sender): owned handles, a header list that throws when it
// cannot grow, and a queue's `deliver` over one reused handle. Header only: its users link libcurl.
#include <curl/curl.h>

#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "common/delivery_queue.hpp"

namespace emporium::server {

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
  void operator()(curl_mime* m) const { curl_mime_free(m); }
};
template <class T>
using CurlPtr = std::unique_ptr<T, CurlDeleter>;

// `list` with `line` appended; throws std::bad_alloc (and frees nothing: the caller owns `list`) when it cannot grow.
inline curl_slist* curl_append(curl_slist* list, const std::string& line) {
  curl_slist* grown = curl_slist_append(list, line.c_str());
  if (!grown) throw std::bad_alloc();
  return grown;
}

// libcurl's global set-up, once for the whole process (before the first handle).
inline void curl_ready() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// What a delivery queue sends with: `deliver` given one handle for every item (libcurl keeps its connections open
// between them), a new one after a failure, so that a server that restarted leaves no broken connection behind.
// Only the queue's thread calls it.
template <class Item>
typename DeliveryQueue<Item>::Deliver over_one_curl_handle(
    std::function<Delivery(CURL* curl, const Item& item, std::string& error)> deliver) {
  curl_ready();
  auto handle = std::make_shared<CurlPtr<CURL>>(curl_easy_init());
  return [handle, deliver = std::move(deliver)](const Item& item, std::string& error) {
    error = "libcurl could not start";
    const auto outcome = *handle ? deliver(handle->get(), item, error) : Delivery::try_again;
    if (outcome == Delivery::try_again) handle->reset(curl_easy_init());
    return outcome;
  };
}

}  // namespace emporium::server
