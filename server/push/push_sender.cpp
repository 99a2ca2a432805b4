#include "push/push_sender.hpp"

#include <mutex>

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include "common/curl_delivery.hpp"
#include "common/wall_clock.hpp"

namespace emporium::server {
namespace {

// What the push service answers is not read: its status is all that counts.
std::size_t discard(char*, std::size_t size, std::size_t count, void*) { return size * count; }

}  // namespace

PushSender::PushSender(PeopleStore& store, const VapidKey& key, PushSenderSettings settings)
    : store_(store), key_(key), settings_(std::move(settings)) {
  queue_ = std::make_unique<DeliveryQueue<PushJob>>(
      "push", settings_.queue,
      over_one_curl_handle<PushJob>(
          [this](CURL* c, const PushJob& push, std::string& error) { return deliver(c, push, error); }));
}

PushSender::~PushSender() = default;

void PushSender::send(const std::vector<PushSubscriptionRow>& to, const std::string& message) {
  for (const auto& s : to) queue_->push({s, message});
}

Delivery PushSender::deliver(CURL* c, const PushJob& push, std::string& error) {
  std::string body, authorization;
  try {
    body = encrypt_push(subscription_keys(push.to.p256dh, push.to.auth), push.message);
    authorization = "Authorization: " + key_.authorization(push.to.endpoint, settings_.contact, unix_now());
  } catch (const PushKeyError& e) {
    error = e.what();  // checked when it was stored: a message too long, or keys made by an older server
    return Delivery::refused;
  }
  curl_easy_reset(c);  // the options of the last push go; its connections stay
  curl_easy_setopt(c, CURLOPT_URL, push.to.endpoint.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
#endif
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(settings_.timeout.count()));
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
  CurlPtr<curl_slist> headers;
  for (const auto& line : {"TTL: " + std::to_string(settings_.ttl_s), std::string("Content-Encoding: aes128gcm"),
                           std::string("Content-Type: application/octet-stream"), std::string("Urgency: normal"),
                           authorization}) {
    curl_slist* grown = curl_append(headers.get(), line);
    headers.release();
    headers.reset(grown);
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode result = curl_easy_perform(c);
  if (result != CURLE_OK) {
    error = curl_easy_strerror(result);
    return Delivery::try_again;
  }
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  if (code >= 200 && code < 300) return Delivery::sent;
  error = "HTTP " + std::to_string(code) + " from " + url_origin(push.to.endpoint).value_or("?");
  if (code == 404 || code == 410) {
    // The browser unsubscribed, or the service expired the subscription: it will never take a push again.
    try {
      store_.remove_push_subscription(push.to.endpoint, push.to.account);
      error += ": the subscription is gone and was deleted";
    } catch (const StoreError& e) {
      error += ": the subscription is gone, but could not be deleted (" + std::string(e.what()) + ")";
    }
    return Delivery::refused;
  }
  return code == 429 || code >= 500 ? Delivery::try_again : Delivery::refused;
}

}  // namespace emporium::server
