#include "connection.hpp"

#include <algorithm>
#include <cstdio>

namespace emporium::load {

namespace websocket = boost::beast::websocket;

connection::connection(net::any_io_executor executor, run_state& run, frame_handler on_frame)
    : run_(run),
      on_frame_(std::move(on_frame)),
      ws_(executor),
      tokens_(run.opt.msg_burst),
      refilled_(clock::now()),
      pace_(executor) {}

net::awaitable<void> connection::open(const tcp::endpoint& server) {
  co_await ws_.next_layer().async_connect(server, net::use_awaitable);
  ws_.next_layer().set_option(tcp::no_delay(true));  // as a browser's socket: no frame waits for the next
  ws_.auto_fragment(false);
  co_await ws_.async_handshake(server.address().to_string() + ":" + std::to_string(server.port()), "/ws",
                               net::use_awaitable);
  open_ = true;
  welcome_ = std::make_shared<reply>(ws_.get_executor());
  read();
  co_await wait_for(welcome_, "welcome");
}

net::awaitable<Json> connection::request(Json message) {
  auto what = message["type"].get<std::string>();
  if (!open_) throw request_failed(what + ": connection closed");
  const auto id = run_.next_request_id++;
  message["id"] = id;
  auto r = std::make_shared<reply>(ws_.get_executor());
  replies_.emplace(id, r);
  send(message.dump());
  co_return co_await wait_for(std::move(r), std::move(what));
}

net::awaitable<Json> connection::wait_for(std::shared_ptr<reply> r, std::string what) {
  if (!r->in) {
    boost::system::error_code cancelled;
    co_await r->signal.async_wait(net::redirect_error(net::use_awaitable, cancelled));
  }
  if (!r->error.empty()) throw request_failed(what + ": " + r->error);
  co_return std::move(r->frame);
}

void connection::read() {
  ws_.async_read(in_, [this](const boost::system::error_code& error, std::size_t bytes) {
    if (error) return closed(error);
    run_.count.bytes_in += static_cast<long>(bytes);
    const auto* text = static_cast<const char*>(in_.data().data());
    Json frame = Json::parse(text, text + in_.size(), nullptr, false);
    in_.consume(in_.size());
    if (frame.is_discarded()) {
      run_.note_error("a frame that is not JSON");
    } else {
      handle(frame);
    }
    read();
  });
}

void connection::handle(Json& frame) {
  const auto type = frame.value("type", "");
  if (type == "welcome") {
    if (welcome_ && !welcome_->in) {
      welcome_->in = true;
      welcome_->signal.cancel();
    }
    return;
  }
  if (const auto re = frame.find("re"); re != frame.end() && re->is_number_integer()) {
    if (const auto waiting = replies_.find(re->get<std::int64_t>()); waiting != replies_.end()) {
      const auto r = waiting->second;
      replies_.erase(waiting);
      r->in = true;
      r->signal.cancel();
      if (type == "error") {
        r->error = frame.value("code", "") + ": " + frame.value("message", "");
        return;
      }
      r->frame = frame;
    }
  }
  on_frame_(frame);
}

void connection::fail_replies(const std::string& why) {
  for (auto& [id, r] : replies_) {
    r->error = why;
    r->in = true;
    r->signal.cancel();
  }
  replies_.clear();
  if (welcome_ && !welcome_->in) {
    welcome_->error = why;
    welcome_->in = true;
    welcome_->signal.cancel();
  }
}

void connection::closed(const boost::system::error_code& error) {
  const bool was_open = open_;
  open_ = false;
  pace_.cancel();
  std::string why = "1006 " + error.message();  // as browsers name a connection lost without a close frame
  if (error == websocket::error::closed) {
    why = std::to_string(ws_.reason().code);
    if (!ws_.reason().reason.empty()) why += " " + std::string(ws_.reason().reason.data(), ws_.reason().reason.size());
  }
  fail_replies("connection closed (" + why + ")");
  if (run_.stopping || !was_open) return;
  ++run_.count.disconnects;
  auto& reason = run_.count.disconnect_reasons[why];
  if (reason.n++ == 0) {
    char at[32] = "during setup";
    if (run_.window_start != clock::time_point{}) {
      std::snprintf(at, sizeof at, "@%.1fs", ms_between(run_.window_start, clock::now()) / 1000);
    }
    reason.first = why + " " + at;
  }
}

void connection::close() {
  open_ = false;
  pace_.cancel();
  boost::system::error_code ignored;
  ws_.next_layer().close(ignored);
}

void connection::send(std::string text, sent_handler on_sent) {
  out_.push_back({std::move(text), std::move(on_sent)});
  flush();
}

void connection::flush() {
  if (writing_ || held_ || out_.empty()) return;
  if (!open_) {
    out_.clear();
    return;
  }
  const auto now = clock::now();
  const auto rate = run_.opt.msg_rate;
  tokens_ = std::min(run_.opt.msg_burst, tokens_ + ms_between(refilled_, now) / 1000 * rate);
  refilled_ = now;
  if (tokens_ < 1) {
    held_ = true;
    pace_.expires_after(std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(std::max((1 - tokens_) / rate, 0.001))));
    pace_.async_wait([this](const boost::system::error_code& error) {
      held_ = false;
      if (!error) flush();
    });
    return;
  }
  tokens_ -= 1;
  writing_ = true;
  ++run_.count.frames_out;
  auto& next = out_.front();
  if (next.on_sent) next.on_sent(now);
  ws_.async_write(net::buffer(next.text), [this](const boost::system::error_code& error, std::size_t) {
    writing_ = false;
    out_.pop_front();
    if (!error) flush();
  });
}

}  // namespace emporium::load
