-- Towers: building them at the pointer, their shots, and the bounty for each kill.
local C = ludus.const
local steer = require("steer")

-- Money paid (and score added) for each kind of enemy destroyed.
local BOUNTY = { runner = 5, tank = 20 }

-- Build at the pointer: on grass (not on the road or the base, not on another tower), and
-- only with the money for it.
local function build(x, y)
  local money = ludus.get("money")   -- starts as [variables] money
  local free = math.abs(x) < 385 and math.abs(y) < 285 -- inside the 800 x 600 meadow
    and not ludus.nearest(x, y, "road", 36)
    and not ludus.nearest(x, y, "base", 44)
    and not ludus.nearest(x, y, "tower", 32)
  if free and money >= C.tower_cost then
    ludus.spawn("tower", x, y)
    ludus.set("money", money - C.tower_cost)
    ludus.effect("build", x, y)
    ludus.sound("build")
  else
    ludus.effect("nope", x, y)
    ludus.sound("nope")
  end
end

function on_tick()
  if ludus.pressed("place") and ludus.get("ended") == 0 then
    local x, y = ludus.pointer()
    if x then
      build(x, y)
    end
  end

  -- Every tower whose cooldown has run out shoots at the nearest enemy in range.
  for _, tower in ipairs(ludus.find("tower")) do
    if ludus.cooldown(tower, "fire") == 0 then
      local x, y = ludus.pos(tower)
      local target = ludus.nearest(x, y, "enemy", C.tower_range)
      if target then
        local tx, ty = ludus.pos(target)
        local dx, dy = tx - x, ty - y
        local d = math.max(math.sqrt(dx * dx + dy * dy), 1)
        local bolt = ludus.spawn("bolt", x, y, { vx = dx / d * C.bolt_speed, vy = dy / d * C.bolt_speed })
        ludus.set_state(bolt, "target", target)
        ludus.use_cooldown(tower, "fire")
        ludus.sound("zap")
      end
    end
  end

  -- Bolts home in on their target while it lives, and fly on (until their lifetime ends) when
  -- it is gone.
  for _, bolt in ipairs(ludus.find("bolt")) do
    local target = ludus.state(bolt, "target")
    local tx, ty = ludus.pos(target)
    if tx then
      steer(bolt, tx, ty)
    end
  end
end

-- A bolt hits the first enemy it touches.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "bolt" and ludus.alive(e.a) then
      ludus.destroy(e.a)
      ludus.damage(e.b, 1, e.a)
      ludus.effect("hit", e.ax, e.ay)
    end
  end
end

-- An enemy out of health pops and pays its bounty (its one death, however many bolts hit it).
function on_death(events)
  local money = ludus.get("money")
  local paid = false
  for _, d in ipairs(events) do
    if BOUNTY[d.kind] then
      ludus.destroy(d.id)
      ludus.effect("pop", d.x, d.y)
      ludus.sound("pop")
      money = money + BOUNTY[d.kind]
      ludus.add_score(BOUNTY[d.kind])
      paid = true
    end
  end
  if paid then
    ludus.set("money", money)
  end
end
