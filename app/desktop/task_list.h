// TaskList: the document's running background tasks (open, measure, baselines, optimizer,
// Measure on GPUs), each with the text the status bar shows for it, newest last.
#pragma once
#include <QString>
#include <algorithm>
#include <utility>
#include <vector>

namespace gp {

class TaskList {
 public:
  int begin(const QString& text) {  // returns the task's id for end()
    tasks_.emplace_back(++lastId_, text);
    return lastId_;
  }
  void end(int id) {
    std::erase_if(tasks_, [id](const auto& t) { return t.first == id; });
  }
  bool empty() const { return tasks_.empty(); }
  size_t size() const { return tasks_.size(); }
  QString newestText() const { return tasks_.empty() ? QString() : tasks_.back().second; }

 private:
  std::vector<std::pair<int, QString>> tasks_;
  int lastId_ = 0;
};

}  // namespace gp
