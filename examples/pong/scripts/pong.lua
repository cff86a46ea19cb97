-- Pong's rules: serving, paddle hits, points, winning, and swapping the players' keys.
--
-- The ball bounces off the walls by itself (a dynamic body with bounce = 1). A paddle hit is
-- the script's: the ball leaves at an angle set by where it met the paddle, a little faster.
-- Each point is scored when the ball reaches the goal behind a paddle (a trigger).
local C = ludus.const

local score = { left = 0, right = 0 }
local over = false
local toward = -1     -- the side the next serve goes to: -1 left, 1 right
local swapped = false -- the players' keys swapped (K), kept in the saved data

-- The keyboard's keys change sides; each player keeps their own pad.
local LEFT_KEYS, RIGHT_KEYS = { w = -1, s = 1 }, { up = -1, down = 1 }
local function with_pad(keys, pad)
  local out = { [pad] = 1 }
  for k, v in pairs(keys) do out[k] = v end
  return out
end

-- Binds each player's action to the keys of their side (or the other's, swapped).
local function bind_keys()
  if swapped then
    ludus.bind("p1_move", with_pad(RIGHT_KEYS, "pad1_ly"))
    ludus.bind("p2_move", with_pad(LEFT_KEYS, "pad2_ly"))
    ludus.set("left_keys", "Up/Down")
    ludus.set("right_keys", "W/S")
  else
    ludus.bind("p1_move", nil) -- the keys game.toml declares
    ludus.bind("p2_move", nil)
    ludus.set("left_keys", "W/S")
    ludus.set("right_keys", "Up/Down")
  end
end

local function serve_later()
  ludus.after(C.serve_delay, "serve")
end

function on_start()
  swapped = ludus.saved("swapped") == 1
  bind_keys()
  serve_later()
end

function on_tick(t)
  if ludus.pressed("swap") then
    swapped = not swapped
    ludus.save("swapped", swapped and 1 or 0)
    bind_keys()
  end
end

function on_timer(events)
  for _, t in ipairs(events) do
    if t.name == "serve" and not over then
      local vy = (ludus.random() - 0.5) * C.serve_speed
      ludus.spawn("ball", 0, 0, { vx = toward * C.serve_speed, vy = vy })
      ludus.set("banner", "")
    end
  end
end

-- The ball met a paddle: away from it, steeper the further from its middle, a little faster.
local function hit(ball, paddle, bx, by, px, py)
  local vx, vy = ludus.vel(ball)
  local speed = math.min(math.sqrt(vx * vx + vy * vy) * C.speedup, C.max_speed)
  local off = math.max(-1, math.min(1, (by - py) / 45))
  local a = off * C.angle
  local dir = bx < px and -1 or 1
  ludus.velocity(ball, dir * speed * math.cos(a), speed * math.sin(a))
  ludus.sound("hit")
end

function on_collision_enter(events)
  for _, e in ipairs(events) do
    local ball_a = ludus.has(e.a_tags, "ball")
    local ball, other = e.a, e.b
    local bx, by, ox, oy = e.ax, e.ay, e.bx, e.by
    if not ball_a then
      ball, other, bx, by, ox, oy = e.b, e.a, e.bx, e.by, e.ax, e.ay
    end
    if e.a_kind == "left_paddle" or e.a_kind == "right_paddle"
      or e.b_kind == "left_paddle" or e.b_kind == "right_paddle" then
      hit(ball, other, bx, by, ox, oy)
    else
      ludus.sound("wall")
    end
  end
end

-- The ball reached a goal: a point for the player at the other end.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if ludus.has(e.b_tags, "ball") and not over then
      ludus.destroy(e.b)
      local side = e.ax < 0 and "right" or "left"
      score[side] = score[side] + 1
      ludus.set(side, score[side])
      ludus.sound("point")
      toward = side == "right" and -1 or 1
      if score[side] >= C.win then
        over = true
        ludus.game_over((side == "left" and "LEFT" or "RIGHT") .. " PLAYER WINS " .. score.left .. "-" .. score.right)
      else
        serve_later()
      end
    end
  end
end
