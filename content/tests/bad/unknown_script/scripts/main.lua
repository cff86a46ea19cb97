function on_start(events) end
