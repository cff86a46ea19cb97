-- Breakout's rules: the bricks, the score, the balls left, serving, winning and losing, and
-- the best score of every game played, kept in the game's saved data (`ludus.save`), which
-- outlives a restart and the program itself.
--
-- What this script does NOT do is move the ball. The ball is a dynamic body with
-- `bounce = 1` (game.toml): the engine pushes it out of the walls, the paddle and the bricks
-- and reflects it about the contact normal at full speed. This script never sets, reads or
-- copies a velocity or a position; it only serves each ball with its starting velocity.
local C = ludus.const

-- The wall of bricks, top row first, one letter per brick: r red, o orange, g green,
-- y yellow, "." a gap. Edit it to make another wall.
local LAYOUT = {
  "rrrrrrrrrr",
  "oooooooooo",
  "gggggggggg",
  "yyyyyyyyyy",
}
local KINDS = { r = "red", o = "orange", g = "green", y = "yellow" }
local POINTS = { red = 7, orange = 5, green = 3, yellow = 1 }

-- Where the grid sits: the first brick's centre, and the distance between brick centres.
local LEFT, TOP, STEP_X, STEP_Y = -252, -200, 56, 22

local lives        -- balls left; the HUD shows the variable "lives"
local over = false -- the game has ended: nothing more to serve or count
local score = 0    -- this game's score (ludus.score() shows it only from the next stage)
local best         -- the best score of any game; the HUD shows the variable "best"

local function serve_later()
  ludus.after(C.serve_delay, "serve")
end

function on_start()
  for row, line in ipairs(LAYOUT) do
    for col = 1, #line do
      local kind = KINDS[line:sub(col, col)]
      if kind then
        ludus.spawn(kind, LEFT + (col - 1) * STEP_X, TOP + (row - 1) * STEP_Y)
      end
    end
  end
  lives = ludus.get("lives")
  best = ludus.saved("best") or 0
  ludus.set("best", best)
  serve_later()
end

-- Serve: a new ball from just under the bricks, down toward the paddle, to the left or to the
-- right at random (the world's seeded generator, so a recording replays the same serves).
function on_timer(events)
  for _, t in ipairs(events) do
    if t.name == "serve" and not over then
      local side = ludus.random(2) == 1 and -1 or 1
      ludus.spawn("ball", C.serve_x, C.serve_y, { vx = side * C.serve_vx, vy = C.serve_vy })
      ludus.set("banner", "")
    end
  end
end

-- The ball is one party of a contact: the other party's id, kind and position.
local function other_than_ball(e)
  if ludus.has(e.b_tags, "ball") then
    return e.a, e.a_kind, e.ax, e.ay
  elseif ludus.has(e.a_tags, "ball") then
    return e.b, e.b_kind, e.bx, e.by
  end
end

-- The ball touched something; the engine has already bounced it off. A brick breaks and
-- scores; the paddle and the walls only make a sound.
function on_collision_enter(events)
  for _, e in ipairs(events) do
    local id, kind, x, y = other_than_ball(e)
    if POINTS[kind] then
      ludus.destroy(id)
      ludus.add_score(POINTS[kind])
      score = score + POINTS[kind]
      if score > best then
        best = score
        ludus.save("best", best)
        ludus.set("best", best)
      end
      ludus.effect("crack", x, y)
      ludus.sound("brick")
      -- The wall is cleared when no brick is left: `count` leaves out the ones destroyed
      -- this tick, this one included.
      if ludus.count("brick") == 0 and not over then
        over = true
        ludus.game_over("YOU WIN")
      end
    elseif kind == "paddle" then
      ludus.sound("paddle")
    elseif kind then
      ludus.sound("wall")
    end
  end
end

-- The ball fell out through the bottom of the court (its `bounds = "destroy"`).
function on_expire(events)
  for _, e in ipairs(events) do
    if e.kind == "ball" and not over then
      lives = lives - 1
      ludus.set("lives", lives)
      ludus.effect("lost", e.x, e.y)
      ludus.sound("lost")
      if lives == 0 then
        over = true
        ludus.game_over("GAME OVER")
      else
        ludus.set("banner", "BALL LOST")
        serve_later()
      end
    end
  end
end
