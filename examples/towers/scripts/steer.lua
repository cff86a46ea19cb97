-- steer(id, x, y): turn an entity toward (x, y), keeping the speed it has (its velocity's
-- length), so each kind's speed stays where it is declared: in its archetype or its spawn.
return function(id, x, y)
  local ex, ey = ludus.pos(id)
  local vx, vy = ludus.vel(id)
  local dx, dy = x - ex, y - ey
  local d = math.sqrt(dx * dx + dy * dy)
  if d > 0 then
    local speed = math.sqrt(vx * vx + vy * vy)
    ludus.velocity(id, dx / d * speed, dy / d * speed)
  end
end
