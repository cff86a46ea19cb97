-- Asteroids: shooting, rocks breaking up, scoring, waves, lives, winning and losing.
--
-- The engine does all the moving: the ship's thrust control, drag and speed limit, every
-- rock's drift and spin, wrapping round the screen's edges, bullets running out of lifetime.
-- This script only answers events: a shot fired, a bullet or the ship touching a rock.
local C = ludus.const

-- What each size of rock is worth, what it breaks into, and how fast its pieces fly.
local ROCKS = {
  rock_big = { score = C.score_big, piece = "rock_mid" },
  rock_mid = { score = C.score_mid, piece = "rock_small" },
  rock_small = { score = C.score_small },
}
local PIECE_SPEED = { rock_mid = 1.6, rock_small = 2.3 } -- times C.rock_speed

local ship     -- the ship's id, nil while it is wrecked
local wave = 0 -- the wave whose rocks are out (the HUD's "wave" announces the next one early)
local rocks_out = false -- the wave's rocks are out: when none is left, the wave is won

-- A rock of `kind` at (x, y) drifting at `speed` toward `heading` (radians), at a random tilt.
local function rock(kind, x, y, heading, speed)
  local id = ludus.spawn(kind, x, y, { vx = math.cos(heading) * speed, vy = math.sin(heading) * speed })
  ludus.set_angle(id, ludus.random() * 2 * math.pi)
  return id
end

-- A new wave: first_wave + wave - 1 big rocks, each somewhere at least 200 units from the ship
-- (or from the middle, where a wrecked ship comes back), drifting roughly its way.
local function start_wave()
  wave = wave + 1
  local sx, sy = 0, 0
  if ship then sx, sy = ludus.pos(ship) end
  for _ = 1, C.first_wave + wave - 1 do
    local x, y
    repeat
      x, y = ludus.random(-400, 400), ludus.random(-300, 300)
    until (x - sx) ^ 2 + (y - sy) ^ 2 > 200 ^ 2
    local toward = math.atan(sy - y, sx - x)
    rock("rock_big", x, y, toward + (ludus.random() - 0.5) * 1.2, C.rock_speed)
  end
  rocks_out = true
  ludus.set("banner", "")
  ludus.sound("wave")
end

-- A rock is hit: it is gone, and unless it was a small one two smaller pieces fly on from where
-- it was, splayed either side of its course and faster than it was.
local function break_rock(id, kind, x, y)
  ludus.destroy(id)
  ludus.effect("dust", x, y)
  ludus.sound("bang")
  local piece = ROCKS[kind].piece
  if not piece then return end
  local vx, vy = ludus.vel(id)
  local course = math.atan(vy, vx)
  local speed = C.rock_speed * PIECE_SPEED[piece]
  for _, side in ipairs({ -1, 1 }) do
    local heading = course + side * (0.4 + ludus.random() * 0.6)
    rock(piece, x, y, heading, speed * (0.8 + ludus.random() * 0.4))
  end
end

-- The ship is wrecked: a ship lost, and either a new one on its way or the game over.
local function wreck(x, y)
  ludus.destroy(ship)
  ship = nil
  ludus.effect("wreck", x, y)
  ludus.sound("wreck")
  local lives = ludus.get("lives") - 1
  ludus.set("lives", lives)
  if lives <= 0 then
    ludus.game_over("GAME OVER")
  else
    ludus.after(C.respawn_delay, "respawn")
  end
end

-- game.toml's [variables] already announce wave 1; its rocks come a second later.
function on_start()
  ship = ludus.find("ship")[1]
  ludus.after(60, "wave")
end

function on_tick(t)
  -- A wave is won when its last rock is gone; the last wave wins the game.
  if rocks_out and ludus.count("rock") == 0 then
    rocks_out = false
    if wave == ludus.get("waves") then
      ludus.game_over("YOU WIN")
    else
      ludus.set("wave", wave + 1)
      ludus.set("banner", "WAVE " .. (wave + 1))
      ludus.after(90, "wave")
    end
  end
  -- A flicker of flame behind the ship while its engine burns (only for the eye).
  if ship and ludus.held("thrust") and t.tick % 3 == 0 then
    local x, y = ludus.pos(ship)
    local a = ludus.angle(ship)
    ludus.effect("flame", x - math.cos(a) * 16, y - math.sin(a) * 16)
  end
end

-- Fire: a bullet from the ship's nose, along its facing, carried on by the ship's own speed.
function on_action(events)
  for _, e in ipairs(events) do
    if e.action == "fire" then
      local x, y = ludus.pos(e.id)
      local vx, vy = ludus.vel(e.id)
      local a = ludus.angle(e.id)
      local fx, fy = math.cos(a), math.sin(a)
      ludus.spawn("bullet", x + fx * C.nose, y + fy * C.nose,
        { vx = vx + fx * C.bullet_speed, vy = vy + fy * C.bullet_speed })
      ludus.sound("shoot")
    end
  end
end

-- Bullets and the ship are triggers, so the trigger is always `a` and the rock `b`.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    -- Two bullets may hit one rock in a tick, or one bullet two rocks: the first counts.
    if ludus.alive(e.a) and ludus.alive(e.b) then
      if e.a_kind == "bullet" then
        ludus.destroy(e.a)
        ludus.add_score(ROCKS[e.b_kind].score)
        break_rock(e.b, e.b_kind, e.bx, e.by)
      elseif e.a_kind == "ship" then
        break_rock(e.b, e.b_kind, e.bx, e.by)
        wreck(e.ax, e.ay)
      end
    end
  end
end

function on_timer(events)
  for _, e in ipairs(events) do
    if e.name == "wave" then
      start_wave()
    elseif e.name == "respawn" then
      -- A new ship in the middle, facing up, once no rock is too close to it; else wait.
      if #ludus.within(0, 0, C.safe_radius, "rock") == 0 then
        ship = ludus.spawn("ship", 0, 0)
      else
        ludus.after(10, "respawn")
      end
    end
  end
end
