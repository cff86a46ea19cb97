-- Drones hurt the player on contact.
function on_collision_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "drone" and e.b_kind == "player" then
      ludus.damage(e.b, 1)
    end
  end
end
