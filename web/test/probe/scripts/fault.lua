-- A runtime error on purpose: the game must stop in its fault screen, naming this line.
function on_action(events)
  for _, e in ipairs(events) do
    if e.action == "fault" then
      error("a deliberate script error (the F key)")
    end
  end
end
