#include "run_state.hpp"

namespace emporium::load {

net::awaitable<void> all(std::vector<net::awaitable<void>> tasks) {
  const auto executor = co_await net::this_coro::executor;
  struct joined {
    explicit joined(const net::any_io_executor& e, std::size_t n) : done(e, clock::time_point::max()), left(n) {}
    net::steady_timer done;
    std::size_t left;
    std::exception_ptr failure;
  };
  auto state = std::make_shared<joined>(executor, tasks.size());
  for (auto& task : tasks) {
    net::co_spawn(executor, std::move(task), [state](std::exception_ptr failure) {
      if (failure && !state->failure) state->failure = failure;
      if (--state->left == 0) state->done.cancel();
    });
  }
  if (state->left > 0) {
    boost::system::error_code cancelled;
    co_await state->done.async_wait(net::redirect_error(net::use_awaitable, cancelled));
  }
  if (state->failure) std::rethrow_exception(state->failure);
}

net::awaitable<void> sleep_for(clock::duration how_long) {
  net::steady_timer timer(co_await net::this_coro::executor, how_long);
  co_await timer.async_wait(net::use_awaitable);
}

}  // namespace emporium::load
