-- Flappy's rules: flapping and tilting the bird, the pipes and their gaps, points, lives, and
-- the best score of every game played (kept in the game's saved data, `ludus.save`).
--
-- The bird falls by itself (it is a dynamic body and [physics] has gravity); a flap only gives
-- it an upward speed. Everything about how things look while the game runs is a command:
-- `ludus.set_angle` tilts the bird (the window draws the turn smoothly between ticks),
-- `ludus.set_look` squashes it for a moment when it flaps and blinks it while it cannot be
-- hurt, and the pipes are spawned at the height each one needs with the `size` option.
local C = ludus.const

local bird         -- the bird's id (placed by the level, found on the first tick)
local started = false
local over = false
local lives        -- the HUD shows the variable "lives"
local score = 0    -- this game's score (ludus.score() shows it only from the next stage)
local best         -- the HUD shows the variable "best"
local blink_until = 0 -- the tick the bird stops blinking; until then pipes pass through it

function on_start(t)
  bird = ludus.find("bird")[1]
  lives = ludus.get("lives")
  best = ludus.saved("best") or 0
  ludus.set("best", best)
  -- A sky that already has clouds in it.
  for i = 0, 3 do
    local x = -400 + i * 240 + ludus.random(0, 60)
    ludus.spawn("cloud", x, ludus.random(-260, -60), { vx = -20, scale = 0.6 + ludus.random() })
  end
end

local function flap(tick)
  ludus.velocity(bird, 0, -C.flap_speed)
  ludus.sound("flap")
  -- Squashed wide for a moment, then round again.
  ludus.set_look(bird, { scale = { 1.2, 0.8 } })
  ludus.after(6, "unsquash")
end

-- A pair of pipes with a gap at a random height, coming in from the right: each pipe as tall
-- as it needs (`size`), its lip at the gap, and the unseen gap between them that scores.
local function pipes()
  local x, half = C.spawn_x, C.gap / 2
  local mid = ludus.random(C.gap_top, C.gap_bottom)
  local opts = function(w, h) return { vx = -C.pipe_speed, size = { w, h } } end
  local top_end, bottom_end = mid - half, mid + half
  ludus.spawn("top_pipe", x, (C.sky_top + top_end) / 2, opts(64, top_end - C.sky_top))
  ludus.spawn("pipe", x, (bottom_end + C.ground_top) / 2, opts(64, C.ground_top - bottom_end))
  ludus.spawn("top_cap", x, top_end - 14, { vx = -C.pipe_speed })
  ludus.spawn("cap", x, bottom_end + 14, { vx = -C.pipe_speed })
  ludus.spawn("gap", x + 20, mid, { vx = -C.pipe_speed, size = { 8, C.gap } })
end

local function cloud()
  local y = ludus.random(-270, -40)
  ludus.spawn("cloud", 620, y, { vx = -15 - ludus.random(0, 15), scale = 0.6 + ludus.random() })
end

function on_tick(t)
  if over then return end
  local flapped = ludus.pressed("flap")
  if not started then
    -- Hovering, bobbing gently, until the first flap.
    if not flapped then
      ludus.velocity(bird, 0, math.cos(t.tick / 12) * 40)
      return
    end
    started = true
    ludus.set("banner", "")
    ludus.every(C.pipe_every, "pipes", { delay = 30 })
    ludus.every(200, "cloud")
  end
  if flapped then flap(t.tick) end
  -- Nose up while rising, down while falling: the angle follows the vertical speed.
  local _, vy = ludus.vel(bird)
  ludus.set_angle(bird, math.max(-0.45, math.min(1.2, (vy or 0) / 650)))
  -- Blinking: faded every other 6 ticks while it cannot be hurt, solid again after.
  if t.tick < blink_until then
    ludus.set_look(bird, { alpha = (t.tick // 6) % 2 == 0 and 0.25 or 1 })
  elseif t.tick == blink_until then
    ludus.set_look(bird, { alpha = 1 })
  end
end

function on_timer(events)
  for _, t in ipairs(events) do
    if over then return end
    if t.name == "pipes" then
      pipes()
    elseif t.name == "cloud" then
      cloud()
    elseif t.name == "unsquash" then
      ludus.set_look(bird, { scale = 1 })
    end
  end
end

local function crash(tick)
  ludus.effect("feathers", ludus.pos(bird))
  ludus.sound("hit")
  ludus.camera_shake(6, 12)
  lives = lives - 1
  ludus.set("lives", lives)
  if lives == 0 then
    over = true
    if score > best then
      ludus.save("best", score)
      ludus.set("best", score)
    end
    ludus.game_over("GAME OVER - " .. score .. (score == 1 and " point" or " points"))
  else
    blink_until = tick + C.blink_ticks
  end
end

-- The bird touched a pipe or the ground. The ground always bounces it back up; either costs
-- a life unless the bird is still blinking from the last one.
function on_collision_enter(events)
  for _, e in ipairs(events) do
    local other = e.a == bird and e.b_tags or e.a_tags
    if (e.a == bird or e.b == bird) and not over then
      if ludus.has(other, "ground") then
        ludus.velocity(bird, 0, -C.flap_speed)
      end
      if e.tick >= blink_until then
        crash(e.tick)
      end
    end
  end
end

-- Through a gap: a point.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if e.b == bird and not over then
      ludus.destroy(e.a)
      ludus.add_score(1)
      score = score + 1
      ludus.sound("point")
    end
  end
end
