-- A kite crossing the finish line scores once.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if ludus.has(e.b_tags, "kite") then
      ludus.add_score(1)
      ludus.log("kite " .. e.b .. " crossed at tick " .. e.tick)
    end
  end
end
